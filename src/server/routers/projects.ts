import type Router from '@koa/router';
import { z } from 'zod';
import { newId } from '../../protocol/ids';
import { ProjectRecordSchema, type EnvironmentRecord, type ProjectRecord } from '../../registry/records';
import { IdParamsSchema } from '../http/idParams';
import { mustGet } from '../http/lookups';
import { addRoute, apiRouter } from '../http/routeSpec';
import { patchedProject, ProjectPatchSchema } from '../workspaces/projectSettings';
import { checkRootOnHost } from '../roots/registerRoot';
import { addRootRoutes } from '../roots/rootRoutes';
import type { AppDeps } from './appDeps';

/** Spec 2.1. */
export const CreateProjectBodySchema = z.strictObject({
  name: z.string().min(1).max(200),
  source: z.strictObject({
    type: z.literal('local_path'),
    path: z.string().min(1),
    hostId: z.string().min(1),
  }),
});

/** `POST /projects`, `GET /projects`, `PATCH /projects/:id`, `GET /projects/:id`, `GET /projects/:id/paths`. */
export function projectsRouter(deps: AppDeps): Router {
  const router = apiRouter(deps.config);

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
    async (ctx, { body }) => {
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
      method: 'patch',
      path: '/projects/:id',
      summary: 'Rename a project or change how its threads work: default workspace, branch prefix, setup script',
      tag,
      params: IdParamsSchema,
      body: ProjectPatchSchema,
      responses: { 200: { description: 'The project as changed', schema: ProjectRecordSchema } },
    },
    async (ctx, { params, body }) => {
      const project = await mustGet(deps.registry.projects, params.id, 'project');
      const changed = patchedProject(project, body);
      await deps.registry.projects.update(changed);
      ctx.body = changed;
    },
  );

  addRootRoutes(router, deps.hosts, {
    what: 'project',
    collection: deps.registry.projects,
    schema: ProjectRecordSchema,
    placeOf: (project) => project.source,
    pathsSummary: 'Fuzzy path search in the project folder (quick-open)',
  });

  return router;
}
