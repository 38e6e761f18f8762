import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';

import { FieldError, FormStatus, fieldProps } from '@/components/form';
import { ApiError } from '@/lib/api-client';
import { sentence } from '@/lib/text';

import { useRenameTeam } from '../api/update-team';
import type { Team } from '../types';

/** Renames the team (admins and owners). */
export function RenameTeam({ team }: { team: Team }) {
  const id = useId();
  const rename = useRenameTeam();
  const [done, setDone] = useState<string | null>(null);
  const { register, handleSubmit, formState, setError } = useForm<{ name: string }>({ values: { name: team.name } });
  const { errors } = formState;

  const submit = handleSubmit(async ({ name }) => {
    setDone(null);
    try {
      const renamed = await rename.mutateAsync({ publicId: team.public_id, name: name.trim() });
      setDone(sentence(`The team is now called ${renamed.name}`));
    } catch (error) {
      const message = error instanceof ApiError ? (error.fields?.name ?? error.message) : 'The team could not be renamed.';
      setError('name', { message });
    }
  });

  return (
    <section className="card profile-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Team name</h2>
      <form onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor={`${id}-name`}>Name</label>
          <input
            id={`${id}-name`}
            autoComplete="off"
            {...fieldProps(`${id}-name`, errors.name)}
            {...register('name', {
              validate: (value) => value.trim() !== '' || 'Enter a name for the team.',
            })}
          />
          <FieldError id={`${id}-name`} error={errors.name} />
        </div>
        <button type="submit" className="button button--primary" disabled={formState.isSubmitting}>
          Rename
        </button>
        <FormStatus message={done} />
      </form>
    </section>
  );
}
