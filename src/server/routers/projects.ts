import Router from '@koa/router';
import { z } from 'zod';
import { newId } from '../../protocol/ids';
import type { EnvironmentRecord, ProjectRecord } from '../../registry/records';
import type { AppDeps } from './appDeps';
import { mustGet } from '../http/lookups';
import { parseInput } from '../http/parseInput';
import { PathsQuerySchema } from './pathsQuery';
import { readJsonBody } from '../http/readJsonBody';
import { checkRootOnHost } from './registerRoot';
import { addRoute } from './routeSpec';
import { ProjectRecordSchema } from '../../registry/records';
import { ListPathsResultSchema } from '../../protocol/hostFiles';

/** Spec 2.1. */
export const CreateProjectBodySchema = z.strictObject({
  name: z.string().min(1).max(200),
  source: z.strictObject({
    type: z.literal('local_path'),
    path: z.string().min(1),
    hostId: z.string().min(1),
  }),
});

/** `POST /projects`, `GET /projects`, `GET /projects/:id`, `GET /projects/:id/paths`. */
export function projectsRouter(deps: AppDeps): Router {
  const router = new Router();

  const tag = 'projects';
  addRoute(
    router,
    {
      method: 'post',
      path: '/projects',
      summary: 'Create a project on a folder of a host',
      tag,
      body: CreateProjectBodySchema,
      responses: { 201: { description: 'The project', schema: ProjectRecordSchema } },
    },
    async (ctx) => {
      const body = parseInput(CreateProjectBodySchema, await readJsonBody(ctx, deps.config.maxBodyBytes), 'body');
      const folder = await checkRootOnHost(deps.hosts, body.source.hostId, body.source.path);
      const createdAt = new Date().toISOString();
      // Every project gets an environment for its own folder, so a thread needs nothing more than the project.
      const environment: EnvironmentRecord = { id: newId('env'), hostId: body.source.hostId, path: folder, createdAt };
      const project: ProjectRecord = {
        id: newId('proj'),
        name: body.name,
        source: { ...body.source, path: folder },
        environmentId: environment.id,
        createdAt,
      };
      await deps.registry.environments.insert(environment);
      await deps.registry.projects.insert(project);
      ctx.status = 201;
      ctx.set('Location', `/api/v1/projects/${project.id}`);
      ctx.body = project;
    },
  );

  addRoute(
    router,
    {
      method: 'get',
      path: '/projects',
      summary: 'Every project',
      tag,
      responses: { 200: { description: 'Projects', schema: z.array(ProjectRecordSchema) } },
    },
    async (ctx) => {
      ctx.body = await deps.registry.projects.find();
    },
  );

  addRoute(
    router,
    {
      method: 'get',
      path: '/projects/:id',
      summary: 'One project',
      tag,
      responses: { 200: { description: 'The project', schema: ProjectRecordSchema } },
    },
    async (ctx) => {
      ctx.body = await mustGet(deps.registry.projects, ctx.params.id!, 'project');
    },
  );

  addRoute(
    router,
    {
      method: 'get',
      path: '/projects/:id/paths',
      summary: 'Fuzzy path search in the project folder (quick-open)',
      tag,
      query: PathsQuerySchema,
      responses: { 200: { description: 'Ranked paths with matched positions', schema: ListPathsResultSchema } },
    },
    async (ctx) => {
      const query = parseInput(PathsQuerySchema, ctx.query, 'query');
      const project = await mustGet(deps.registry.projects, ctx.params.id!, 'project');
      ctx.body = await deps.hosts.call(project.source.hostId, 'host.list_paths', { ...query, path: project.source.path });
    },
  );

  return router;
}
