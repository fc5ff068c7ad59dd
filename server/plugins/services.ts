/**
 * The server's services as typed decorators: the SQLite store, the recognition worker pool and
 * the table registry. Closed in order on shutdown (tables save their tracker state first).
 */
import fp from 'fastify-plugin';
import { liveRecognizerConfig } from './config';
import { TableStore } from '../tables/store';
import { RecognitionPool } from '../workers/pool';
import { TableRegistry } from '../tables/registry';

declare module 'fastify' {
  interface FastifyInstance {
    store: TableStore;
    pool: RecognitionPool;
    tables: TableRegistry;
  }
}

export default fp(
  async (app) => {
    const store = new TableStore(app.config.dataDir);
    const pool = new RecognitionPool({
      workers: app.config.workers,
      peerHelp: app.config.peerHelp,
      decodeAhead: app.config.decodeAhead,
      pipeline: app.config.pipeline,
      heapGrowingPercent: app.config.heapGrowingPercent,
      kind: app.config.recognizer,
      fake: app.config.fakeRecognizer,
      // The learned locator (when its model exists) on every frame with NERTS_LOCATOR=1, else on frames read whole only.
      realConfig: liveRecognizerConfig(app.config),
    });
    pool.backend.then(
      (backend) => app.log.info({ backend }, 'recogniser ready'),
      (error: Error) => app.log.error({ err: error }, 'recogniser failed to load: frames will not be recognised'),
    );
    const tables = new TableRegistry(store, pool);
    app.decorate('store', store);
    app.decorate('pool', pool);
    app.decorate('tables', tables);
    app.addHook('onClose', async () => {
      tables.close();
      await pool.close();
      store.close();
    });
  },
  { name: 'services', dependencies: ['config'] },
);
