// A Delete button that asks first (components/ConfirmAction), naming the item and what
// deleting it does, and says why when the console refuses.
import { ConfirmAction } from '../components/ConfirmAction';

export function DeleteButton({ name, consequence, remove, onDeleted }: { name: string; consequence: string; remove: () => Promise<unknown>; onDeleted: () => void }) {
  return (
    <ConfirmAction
      label="Delete"
      ariaLabel={`Delete ${name}`}
      title={`Delete “${name}”?`}
      confirmLabel="Yes, delete"
      cancelLabel="Cancel"
      action={remove}
      onDone={onDeleted}
    >
      <p>
        “{name}” is deleted for good. {consequence}
      </p>
    </ConfirmAction>
  );
}
