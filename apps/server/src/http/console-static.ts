import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error.js';
import type { PublicAddress } from './public-address.js';

/** The console reads PUBLIC_URL from this tag of its index.html (apps/console publicAddress.ts). */
export const publicUrlMetaName = 'verbatim-public-url';

/**
 * Serves the console's built files and answers every other GET that is not under /api with its
 * index.html, so client-side routes (and the console's own not-found screen) work on reload. A page
 * asked for at another address than PUBLIC_URL is redirected there (see PublicAddress); index.html
 * carries PUBLIC_URL, so that the console can explain where a redirect cannot help.
 */
export async function registerConsole(
  app: FastifyInstance,
  directory: string,
  publicAddress: PublicAddress,
): Promise<void> {
  const indexFile = path.join(directory, 'index.html');
  const available = existsSync(indexFile);
  if (available) {
    await app.register(fastifyStatic, {
      root: directory,
      wildcard: false,
      index: false,
      setHeaders: (res, filePath) => {
        // Vite puts a content hash in every asset name, so those never change.
        const immutable = filePath.startsWith(path.join(directory, 'assets') + path.sep);
        res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  } else {
    app.log.warn({ directory }, 'console is not built: run `npm run build` to serve it');
  }

  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const isApi = pathname === '/api' || pathname.startsWith('/api/');
    const wantsPage = request.method === 'GET' || request.method === 'HEAD';
    if (isApi || !wantsPage || !available || /\.[a-z0-9]+$/i.test(pathname)) {
      throw new AppError('ROUTE_NOT_FOUND', `No route ${request.method} ${pathname}.`);
    }
    const answer = publicAddress.answerConsolePage(request);
    if (answer.kind === 'redirect') return publicAddress.redirect(reply, answer.location);
    return readFile(indexFile, 'utf8').then((html) =>
      reply
        .header('cache-control', 'no-cache')
        .type('text/html; charset=utf-8')
        .send(withPublicUrl(html, publicAddress.url)),
    );
  });
}

/** index.html with a meta tag naming PUBLIC_URL, first thing in its head. */
function withPublicUrl(html: string, publicUrl: string): string {
  const tag = `<meta name="${publicUrlMetaName}" content="${escapeAttribute(publicUrl)}">`;
  const head = /<head[^>]*>/i.exec(html);
  if (head) return html.slice(0, head.index + head[0].length) + tag + html.slice(head.index + head[0].length);
  const doctype = /^<!doctype html>/i.exec(html);
  return doctype ? doctype[0] + tag + html.slice(doctype[0].length) : tag + html;
}

function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
