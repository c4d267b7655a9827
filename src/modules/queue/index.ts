// The queue module's face: what code outside the module may use. Everything else in
// this folder is the module's own.
export { queueRoutes, queueSchemas } from './queue.routes.ts';
