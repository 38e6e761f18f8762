import { useId } from 'react';
import { useForm } from 'react-hook-form';

import { FieldError, fieldProps } from '@/components/form';
import { ApiError } from '@/lib/api-client';
import { notify } from '@/lib/toast';

import { useCreateTeam } from '../api/create-team';
import { useSelectTeam } from '../select-team';

/** Starts another team, owned by the person, and switches to it. */
export function CreateTeamForm() {
  const id = useId();
  const create = useCreateTeam();
  const selectTeam = useSelectTeam();
  const { register, handleSubmit, formState, reset, setError } = useForm<{ name: string }>({ defaultValues: { name: '' } });
  const { errors } = formState;

  const submit = handleSubmit(async ({ name }) => {
    try {
      const team = await create.mutateAsync(name.trim());
      reset();
      notify.success(`${team.name} is ready.`);
      await selectTeam(team.public_id);
    } catch (error) {
      const message = error instanceof ApiError ? (error.fields?.name ?? error.message) : 'The team could not be created.';
      setError('name', { message });
    }
  });

  return (
    <section className="card profile-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Start another team</h2>
      <form onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor={`${id}-name`}>Team name</label>
          <input
            id={`${id}-name`}
            autoComplete="off"
            {...fieldProps(`${id}-name`, errors.name)}
            {...register('name', { validate: (value) => value.trim() !== '' || 'Enter a name for the team.' })}
          />
          <FieldError id={`${id}-name`} error={errors.name} />
        </div>
        <button type="submit" className="button button--primary" disabled={formState.isSubmitting}>
          Create team
        </button>
      </form>
    </section>
  );
}
