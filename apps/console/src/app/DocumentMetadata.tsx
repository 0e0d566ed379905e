import { useProductName } from '../runtimeConfig/useProductName';

/**
 * Title and description of the document. React 19 hoists these elements into <head>; the product
 * name alone is the default, and follows the runtime configuration.
 */
export function DocumentMetadata({ title, description }: { title?: string; description?: string }) {
  const productName = useProductName();
  return (
    <>
      <title>{title ? `${title} · ${productName}` : productName}</title>
      {description && <meta name="description" content={description} />}
    </>
  );
}
