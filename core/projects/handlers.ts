// The projects operations of the contract, answered by the projects service.
import type { Handler } from '../dispatch/dispatch';
import type { ProjectsService } from './service';

export { createProjectsService, type ExampleSource, type ProjectsService } from './service';

type ProjectHandlers = {
  'projects.import': Handler<'projects.import'>;
  'projects.importPath': Handler<'projects.importPath'>;
  'projects.importRun': Handler<'projects.importRun'>;
  'projects.importExample': Handler<'projects.importExample'>;
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
    'projects.importExample': async (_input, ctx) => {
      const run = await service.importExample();
      ctx.setStatus(202);
      return run;
    },
  };
}
