// The workflows of the active profile, as the pages that list or pick them read it.
import { call } from '../api/client';
import { qk } from '../api/keys';
import { useReadOnOpen } from '../api/read-on-open';

export const useWorkflowList = () => useReadOnOpen({ queryKey: qk.workflows(), queryFn: () => call('workflows.list') });
