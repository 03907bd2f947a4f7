// A Delete button that asks first, naming the item and what deleting it does, and
// says why when the console refuses.
import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';

export function DeleteButton({ name, consequence, remove, onDeleted }: { name: string; consequence: string; remove: () => Promise<unknown>; onDeleted: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const mutation = useMutation({
    mutationFn: remove,
    onSuccess: () => {
      setConfirming(false);
      onDeleted();
    },
  });
  if (!confirming) {
    return (
      <button type="button" onClick={() => setConfirming(true)} aria-label={`Delete ${name}`}>
        Delete
      </button>
    );
  }
  return (
    <span role="group" aria-label={`Confirm deleting ${name}`} className="confirm">
      Delete “{name}”? {consequence}{' '}
      <button type="button" className="danger" onClick={() => mutation.mutate()} disabled={mutation.isPending}>
        {mutation.isPending ? 'Deleting…' : 'Yes, delete'}
      </button>{' '}
      <button type="button" onClick={() => setConfirming(false)} disabled={mutation.isPending}>
        Cancel
      </button>
      {mutation.isError && <span className="error"> Cannot delete: {mutation.error.message}</span>}
    </span>
  );
}
