// The projects operations of the contract, answered by the projects service.
import type { Handler } from '../dispatch/dispatch';
import type { ProjectsService } from './service';
import { exportProject, findProject, listProjects } from './studio-projects';

export { createProjectsService, type ExampleSource, type ProjectsService } from './service';

type ProjectHandlers = {
  'projects.import': Handler<'projects.import'>;
  'projects.importPath': Handler<'projects.importPath'>;
  'projects.importRun': Handler<'projects.importRun'>;
  'projects.importExample': Handler<'projects.importExample'>;
  'projects.studioList': Handler<'projects.studioList'>;
  'projects.studioGet': Handler<'projects.studioGet'>;
  'projects.studioImport': Handler<'projects.studioImport'>;
  'projects.studioExport': Handler<'projects.studioExport'>;
};

export function projectsHandlers(service: ProjectsService): ProjectHandlers {
  return {
    'projects.import': async ({ body }, ctx) => {
      const run = service.importFiles(body.files);
      ctx.setStatus(202);
      return run;
    },
    'projects.importPath': async ({ body }, ctx) => {
      const run = await service.importPath(body.path);
      ctx.setStatus(202);
      return run;
    },
    'projects.importRun': async ({ params }) => service.run(params.id),
    'projects.studioList': async ({ query }) => {
      const { items, total } = await listProjects(service.store(), query);
      return { message: 'Successfully retrieved projects', data: items, metadata: { skip: query.skip, limit: query.limit, total } };
    },
    'projects.studioImport': async ({ body }) => {
      const { project, failed } = await service.importProjectNow(body.project);
      const message = failed.length ? `Imported project with ${failed.length} component(s) not imported` : 'Successfully imported project';
      return { message, data: project, metadata: { failedComponents: failed } };
    },
    'projects.studioGet': async ({ params }) => ({ message: 'Successfully retrieved project', data: await findProject(service.store(), params.id) }),
    'projects.studioExport': async ({ params }) => {
      const { project, missing } = await exportProject(service.store(), params.id);
      const message = missing.length ? `Exported project; ${missing.length} component(s) no longer stored, left without a document: ${missing.join(', ')}` : 'Successfully exported project';
      return { message, data: project };
    },
    'projects.importExample': async (_input, ctx) => {
      const run = await service.importExample();
      ctx.setStatus(202);
      return run;
    },
  };
}
