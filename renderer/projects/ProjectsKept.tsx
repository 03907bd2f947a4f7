// The projects kept from the project exports imported (Automation Studio's projects): each one listed
// with its components, and exported again as a *.project.json, each component with its document as it
// is now in this profile (GET /automation-studio/projects/:id/export), to take back to the service.
import { useMutation, useQuery } from '@tanstack/react-query';
import { call } from '../api/client';
import { qk } from '../api/keys';
import { Alert } from '../shell/Alert';

type Kept = { _id: string; name?: unknown; iid?: unknown; components?: unknown };

/** Saves the project's export as the browser's download, named as the service names its exports. */
async function saveExport(project: Kept): Promise<string> {
  const answer = await call('projects.studioExport', { params: { id: project._id } });
  const blob = new Blob([JSON.stringify(answer.data, null, 2)], { type: 'application/json' });
  const link = Object.assign(document.createElement('a'), { href: URL.createObjectURL(blob), download: `${String(project.name ?? project._id)}.project.json` });
  link.click();
  URL.revokeObjectURL(link.href);
  return answer.message;
}

export function ProjectsKept() {
  const projects = useQuery({ queryKey: qk.studioProjects(), queryFn: () => call('projects.studioList', { query: { limit: 0, skip: 0 } }) });
  const exporting = useMutation({ mutationFn: saveExport });
  const list = projects.data?.data ?? [];
  return (
    <section aria-label="Projects">
      <h2>Projects</h2>
      {projects.isError && <Alert>Cannot read the projects: {projects.error.message}</Alert>}
      {projects.isSuccess && list.length === 0 && <p className="muted">No project yet: a project export imported here is kept, and can be exported again.</p>}
      {list.length > 0 && (
        <table aria-label="Projects kept">
          <thead>
            <tr>
              <th scope="col">Project</th>
              <th scope="col">iid</th>
              <th scope="col">Components</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.map((project: Kept) => (
              <tr key={project._id}>
                <td>{String(project.name ?? project._id)}</td>
                <td>{typeof project.iid === 'number' ? project.iid : ''}</td>
                <td>{Array.isArray(project.components) ? project.components.length : 0}</td>
                <td>
                  <button type="button" onClick={() => exporting.mutate(project)} disabled={exporting.isPending} aria-label={`Export ${String(project.name ?? project._id)}`}>
                    Export
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {exporting.isSuccess && (
        <p role="status" className="muted">
          {exporting.data}
        </p>
      )}
      {exporting.isError && <Alert>The export failed: {exporting.error.message}</Alert>}
    </section>
  );
}
