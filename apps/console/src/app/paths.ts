/** Paths other modules link to; the route table in routes.tsx is the authority on what they show. */
export const homePath = '/home';
export const generalErrorPath = '/error';
/** Served by the API server next to the OpenAPI document, outside the single-page app. */
export const apiReferencePath = '/api/docs';
