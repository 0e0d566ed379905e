import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error.js';

/**
 * Serves the console's built files and answers every other GET that is not under /api with its
 * index.html, so client-side routes (and the console's own not-found screen) work on reload.
 */
export async function registerConsole(app: FastifyInstance, directory: string): Promise<void> {
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
    return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').sendFile('index.html');
  });
}
