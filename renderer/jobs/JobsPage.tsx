// The Jobs area: `#/jobs` lists the jobs, `#/jobs/<id>` shows one job.
import { useEffect, useState } from 'react';
import { JobsList } from './JobsList';
import { JobView } from './JobView';

function jobIdFromHash(): string | undefined {
  const [, id] = window.location.hash.replace(/^#\/?/, '').split('/');
  return id ? decodeURIComponent(id) : undefined;
}

export function JobsPage() {
  const [id, setId] = useState(jobIdFromHash);
  useEffect(() => {
    const onHash = () => setId(jobIdFromHash());
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  return id ? <JobView key={id} id={id} /> : <JobsList />;
}
