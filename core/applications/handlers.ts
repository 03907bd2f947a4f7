// Start, stop and restart of the applications (the service's /applications/:name routes).
import type { Handler } from '../dispatch/dispatch';
import { ConsoleError } from '../errors';
import { UnknownApplicationError, type Applications } from './lifecycle';

type Ops = 'applications.start' | 'applications.stop' | 'applications.restart';

export interface ApplicationsService {
  applications(): Applications;
}

/** Reads the active profile's applications at each call (activating a profile replaces them). */
export function createApplicationsService(deps: { applications: () => Applications }): ApplicationsService {
  return { applications: deps.applications };
}

export function applicationsHandlers(service: ApplicationsService): { [K in Ops]: Handler<K> } {
  const action = (verb: 'start' | 'stop' | 'restart') => async ({ params }: { params: { name: string } }) => {
    const apps = service.applications();
    try {
      await apps[verb](params.name);
    } catch (error) {
      if (error instanceof UnknownApplicationError) throw new ConsoleError('not_found', error.message);
      throw error;
    }
    return apps.item(params.name);
  };
  return { 'applications.start': action('start'), 'applications.stop': action('stop'), 'applications.restart': action('restart') };
}
