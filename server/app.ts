/**
 * The referee server as a Fastify plugin tree: config → errors → security → services → auth →
 * docs → websocket → routes → web app. `buildApp(config)` returns a ready-to-listen instance;
 * server/main.ts listens and shuts down; tests use inject()/injectWS().
 */
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import websocket from '@fastify/websocket';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import configPlugin, { configFromEnv, type ServerConfig } from './plugins/config';
import errorsPlugin from './plugins/errors';
import securityPlugin from './plugins/security';
import servicesPlugin from './plugins/services';
import authPlugin from './plugins/auth';
import docsPlugin from './plugins/docs';
import clientPlugin from './plugins/client';
import healthRoutes from './routes/health';
import tableRoutes from './routes/tables';
import frameRoutes from './routes/frames';
import refereeRoutes from './routes/referee';
import historyRoutes from './routes/history';
import socketRoutes from './routes/sockets';

/** Builds the app; `overrides` replace config from the environment (tests set dataDir, recognizer...). */
export async function buildApp(overrides: Partial<ServerConfig> = {}, fastifyOptions: FastifyServerOptions = {}): Promise<FastifyInstance> {
  const config: ServerConfig = { ...configFromEnv(), ...overrides };
  const app = Fastify({
    logger: fastifyOptions.logger ?? false,
    bodyLimit: config.bodyLimitBytes,
    // TypeBox schemas carry formats ajv does not know by default: keep ajv lenient on keywords.
    ajv: { customOptions: { removeAdditional: false, coerceTypes: true, allErrors: false } },
    ...fastifyOptions,
  }).withTypeProvider<TypeBoxTypeProvider>();

  await app.register(configPlugin, { config });
  await app.register(errorsPlugin);
  await app.register(securityPlugin);
  await app.register(servicesPlugin);
  await app.register(authPlugin);
  await app.register(docsPlugin);
  await app.register(websocket, { options: { maxPayload: config.frameLimits.maxBytes + 8 } });
  await app.register(healthRoutes);
  await app.register(tableRoutes);
  await app.register(frameRoutes);
  await app.register(refereeRoutes);
  await app.register(historyRoutes);
  await app.register(socketRoutes);
  await app.register(clientPlugin);
  return app;
}
