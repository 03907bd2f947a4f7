// The Jobs area: `#/jobs?<filters>` lists the jobs, `#/jobs/<id>` shows one job.
import { useRoute } from '../shell/route';
import { JobsList } from './JobsList';
import { JobView } from './JobView';

export function JobsPage() {
  const id = useRoute().segments[1];
  return id ? <JobView key={id} id={id} /> : <JobsList />;
}
