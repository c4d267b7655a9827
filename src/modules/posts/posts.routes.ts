import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.ts';
import { Post, PostProblem, PostValidation } from './posts.schemas.ts';
import { DeliveryRecord } from './post-delivery-records.schemas.ts';
import { postCreateRoutes } from './post-create.routes.ts';
import { postEditRoutes } from './post-edit.routes.ts';
import { postMediaRoutes } from './post-media.routes.ts';
import { postReadRoutes } from './post-read.routes.ts';

export const postSchemas = [Post, DeliveryRecord, PostProblem, PostValidation];

export function postsRoutes(ctx: AppContext): FastifyPluginAsync {
  // Registered in this order, the operations keep their place in the OpenAPI document.
  return async (app) => {
    await app.register(postCreateRoutes(ctx));
    await app.register(postReadRoutes(ctx));
    await app.register(postEditRoutes(ctx));
    await app.register(postMediaRoutes(ctx));
  };
}
