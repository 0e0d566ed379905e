import type { FastifyRequest } from 'fastify';
import type { AuditContext } from '../modules/accounts/audit-log.js';

/** Who made the request, for the audit log and the captcha. */
export function requestContext(request: FastifyRequest): Required<AuditContext> {
  return { ip: request.ip, userAgent: request.headers['user-agent'] ?? null };
}
