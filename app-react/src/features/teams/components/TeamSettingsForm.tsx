import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';

import { FieldError, FormAlert, FormStatus, fieldProps } from '@/components/form';
import { ApiError } from '@/lib/api-client';
import { converterQueryOptions } from '@/lib/core';
import { type LengthUnit, THREAD_USAGE, lengthUnit } from '@/lib/thread-usage';

import { useSettings } from '../api/get-settings';
import { useUpdateSettings } from '../api/update-settings';
import { type Settings, type Team, canManage, settingKeys } from '../types';

interface SettingsFields {
  currency: string;
  rate: string;
  threadLine: string;
  reorderPoint: string;
  /** The thread-usage model (`thread_usage`); empty fields take the defaults. */
  takeUp: string;
  bobbinPercent: string;
  wastePercent: string;
  unit: LengthUnit;
  /** How quotes read to customers (`quotes`); empty fields take the defaults. */
  validDays: string;
  shopDetails: string;
  logo: string;
}

/** The team setting of how quotes read to customers (bobbin_core::settings::QuoteSettings). */
const QUOTES = 'quotes';

/** The model's defaults (docs/behaviour.md, "Thread usage"), shown as placeholders. */
const USAGE_DEFAULTS = { takeUp: '2.5', bobbinPercent: '60', wastePercent: '10' };

const currencies = Intl.supportedValuesOf('currency');

function fieldsOf(settings: Settings | undefined): SettingsFields {
  const value = (key: string) => settings?.[key];
  const text = (key: string) => (typeof value(key) === 'string' ? (value(key) as string) : '');
  const number = (key: string) => (typeof value(key) === 'number' ? String(value(key)) : '');
  return {
    currency: text(settingKeys.currency),
    rate: number(settingKeys.defaultStitchRate),
    threadLine: text(settingKeys.preferredThreadLine),
    reorderPoint: number(settingKeys.defaultReorderPoint),
    ...usageFieldsOf(value(THREAD_USAGE)),
    ...quoteFieldsOf(value(QUOTES)),
  };
}

function quoteFieldsOf(setting: unknown): Pick<SettingsFields, 'validDays' | 'shopDetails' | 'logo'> {
  const quotes = typeof setting === 'object' && setting !== null ? (setting as Record<string, unknown>) : {};
  return {
    validDays: typeof quotes.valid_days === 'number' ? String(quotes.valid_days) : '',
    shopDetails: typeof quotes.shop_details === 'string' ? quotes.shop_details : '',
    logo: typeof quotes.logo === 'string' ? quotes.logo : '',
  };
}

/** The quote fields as the setting: only what was typed, or null (removed) when nothing was. */
function quoteSettingOf({ validDays, shopDetails, logo }: SettingsFields): Record<string, unknown> | null {
  const quotes: Record<string, unknown> = {};
  if (validDays.trim() !== '') quotes.valid_days = Number(validDays);
  if (shopDetails.trim() !== '') quotes.shop_details = shopDetails.trim();
  if (logo.trim() !== '') quotes.logo = logo.trim();
  return Object.keys(quotes).length > 0 ? quotes : null;
}

function usageFieldsOf(setting: unknown): Pick<SettingsFields, 'takeUp' | 'bobbinPercent' | 'wastePercent' | 'unit'> {
  const model = typeof setting === 'object' && setting !== null ? (setting as Record<string, unknown>) : {};
  const number = (key: string, scale = 1) => (typeof model[key] === 'number' ? String(Math.round(model[key] * scale * 1e6) / 1e6) : '');
  return {
    takeUp: number('take_up_mm'),
    bobbinPercent: number('bobbin_share', 100),
    wastePercent: number('waste_percent'),
    unit: lengthUnit(setting),
  };
}

/** The thread-usage fields as the setting: only what was typed (the rest takes the defaults), or
 * null (removed) when nothing differs from them. */
function usageSettingOf({ takeUp, bobbinPercent, wastePercent, unit }: SettingsFields): Record<string, unknown> | null {
  const model: Record<string, unknown> = {};
  if (takeUp.trim() !== '') model.take_up_mm = Number(takeUp);
  if (bobbinPercent.trim() !== '') model.bobbin_share = Number(bobbinPercent) / 100;
  if (wastePercent.trim() !== '') model.waste_percent = Number(wastePercent);
  if (unit === 'yards') model.unit = 'yards';
  return Object.keys(model).length > 0 ? model : null;
}

/** A number typed for the model: empty, or from 0 to `max`. */
const within = (max: number, message: string) => (value: string) =>
  value.trim() === '' || (Number.isFinite(Number(value)) && Number(value) >= 0 && Number(value) <= max) || message;

/** The form's values as the PATCH map: an emptied field removes its key (null). */
export function settingsChanges(fields: SettingsFields): Settings {
  const { currency, rate, threadLine, reorderPoint } = fields;
  return {
    [THREAD_USAGE]: usageSettingOf(fields),
    [QUOTES]: quoteSettingOf(fields),
    [settingKeys.currency]: currency || null,
    [settingKeys.defaultStitchRate]: rate.trim() === '' ? null : Number(rate),
    [settingKeys.preferredThreadLine]: threadLine || null,
    [settingKeys.defaultReorderPoint]: reorderPoint.trim() === '' ? null : Number(reorderPoint),
  };
}

/** A default reorder point as typed: empty, or a whole number of spools from 0 to 100,000,000. */
function checkReorderPoint(value: string): true | string {
  const text = value.trim();
  return text === '' || (/^\d+$/.test(text) && Number(text) <= 100_000_000) || 'Enter a whole number of spools, 0 or more.';
}

/**
 * The team settings the tools start from: currency, price per 1,000 stitches, preferred thread
 * line, default reorder point, and the thread-usage model. Everyone sees them; admins and owners
 * change them.
 */
export function TeamSettingsForm({ team }: { team: Team }) {
  const id = useId();
  const manage = canManage(team.role);
  const settings = useSettings('team', team.public_id);
  const update = useUpdateSettings();
  // The catalogue's lines, for the thread line choice (the catalogue loads with the page's core).
  const converter = useQuery(converterQueryOptions);
  // The saved values go into the form only once the line choice has its options (or the
  // catalogue failed, when the saved line shows by its id): a select given a value it has no
  // option for shows its first one, "No preference", and saving would then clear the line.
  const ready = settings.data !== undefined && !converter.isPending;
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { register, handleSubmit, formState } = useForm<SettingsFields>({
    ...(ready ? { values: fieldsOf(settings.data) } : {}),
  });
  const { errors } = formState;

  const submit = handleSubmit(async (fields) => {
    setStatus(null);
    setError(null);
    try {
      await update.mutateAsync({ scope: 'team', publicId: team.public_id, changes: settingsChanges(fields) });
      setStatus('The team settings are saved.');
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : 'The settings could not be saved.');
    }
  });

  const current = fieldsOf(settings.data);
  const lines = converter.data?.lines() ?? [];
  return (
    <section className="card profile-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Team settings</h2>
      {settings.isError && !settings.data ? <p role="alert">The settings could not be loaded.</p> : null}
      {manage ? null : (
        <p className="muted" id={`${id}-why`}>
          Only admins and owners can change the team settings.
        </p>
      )}
      <form onSubmit={submit} noValidate>
        <fieldset disabled={!manage || !ready} aria-describedby={manage ? undefined : `${id}-why`}>
          <legend className="visually-hidden">Defaults for the tools</legend>
          <div className="field-row">
            <div className="field">
              <label htmlFor={`${id}-currency`}>Currency</label>
              <select id={`${id}-currency`} {...register('currency')}>
                <option value="">Not set</option>
                {/* A code the browser does not list still shows. */}
                {current.currency && !currencies.includes(current.currency) ? (
                  <option value={current.currency}>{current.currency}</option>
                ) : null}
                {currencies.map((code) => (
                  <option key={code} value={code}>
                    {code}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor={`${id}-rate`}>Default price per 1,000 stitches</label>
              <input
                id={`${id}-rate`}
                type="number"
                inputMode="decimal"
                min="0"
                step="0.01"
                {...fieldProps(`${id}-rate`, errors.rate)}
                {...register('rate', {
                  validate: (value) =>
                    value.trim() === '' || (Number.isFinite(Number(value)) && Number(value) >= 0) || 'Enter a price of 0 or more.',
                })}
              />
              <FieldError id={`${id}-rate`} error={errors.rate} />
            </div>
          </div>
          <div className="field">
            <label htmlFor={`${id}-line`}>Preferred thread line</label>
            <select id={`${id}-line`} {...register('threadLine')}>
              <option value="">No preference</option>
              {current.threadLine && !lines.some((line) => line.id === current.threadLine) ? (
                <option value={current.threadLine}>{current.threadLine}</option>
              ) : null}
              {lines.map((line) => (
                <option key={line.id} value={line.id}>
                  {line.display_name}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${id}-reorder`}>Default reorder point</label>
            <input
              id={`${id}-reorder`}
              type="number"
              inputMode="numeric"
              min="0"
              step="1"
              {...fieldProps(`${id}-reorder`, errors.reorderPoint, `${id}-reorder-hint`)}
              {...register('reorderPoint', { validate: checkReorderPoint })}
            />
            <p id={`${id}-reorder-hint`} className="muted">
              Spools. A thread without a reorder point of its own is low at or below this; with none left it is always low.
            </p>
            <FieldError id={`${id}-reorder`} error={errors.reorderPoint} />
          </div>
          <fieldset className="settings-usage" aria-describedby={`${id}-usage-hint`}>
            <legend>Thread usage</legend>
            <p id={`${id}-usage-hint`} className="muted">
              How much thread a design takes: each stitch's length plus the take-up, with the bobbin as a share of the top thread. The
              pricing calculator and the jobs both count with it. Empty fields use the defaults.
            </p>
            <div className="field-row">
              <div className="field">
                <label htmlFor={`${id}-take-up`}>Take-up per stitch (mm)</label>
                <input
                  id={`${id}-take-up`}
                  type="number"
                  inputMode="decimal"
                  min="0"
                  max="20"
                  step="0.1"
                  placeholder={USAGE_DEFAULTS.takeUp}
                  {...fieldProps(`${id}-take-up`, errors.takeUp)}
                  {...register('takeUp', { validate: within(20, 'Enter a take-up from 0 to 20 mm.') })}
                />
                <FieldError id={`${id}-take-up`} error={errors.takeUp} />
              </div>
              <div className="field">
                <label htmlFor={`${id}-bobbin`}>Bobbin thread (% of top)</label>
                <input
                  id={`${id}-bobbin`}
                  type="number"
                  inputMode="decimal"
                  min="0"
                  max="200"
                  step="1"
                  placeholder={USAGE_DEFAULTS.bobbinPercent}
                  {...fieldProps(`${id}-bobbin`, errors.bobbinPercent)}
                  {...register('bobbinPercent', { validate: within(200, 'Enter a share from 0 to 200%.') })}
                />
                <FieldError id={`${id}-bobbin`} error={errors.bobbinPercent} />
              </div>
            </div>
            <div className="field-row">
              <div className="field">
                <label htmlFor={`${id}-waste`}>Waste allowance for a job (%)</label>
                <input
                  id={`${id}-waste`}
                  type="number"
                  inputMode="decimal"
                  min="0"
                  max="100"
                  step="1"
                  placeholder={USAGE_DEFAULTS.wastePercent}
                  {...fieldProps(`${id}-waste`, errors.wastePercent)}
                  {...register('wastePercent', { validate: within(100, 'Enter an allowance from 0 to 100%.') })}
                />
                <FieldError id={`${id}-waste`} error={errors.wastePercent} />
              </div>
              <div className="field">
                <label htmlFor={`${id}-unit`}>Show thread in</label>
                <select id={`${id}-unit`} {...register('unit')}>
                  <option value="metres">Metres</option>
                  <option value="yards">Yards</option>
                </select>
              </div>
            </div>
          </fieldset>
          <fieldset className="settings-usage" aria-describedby={`${id}-quotes-hint`}>
            <legend>Quotes</legend>
            <p id={`${id}-quotes-hint`} className="muted">
              What your customers read at the head of a quote, on its page and in its PDF, and how long a new quote is valid.
            </p>
            <div className="field">
              <label htmlFor={`${id}-valid-days`}>Days a new quote is valid</label>
              <input
                id={`${id}-valid-days`}
                type="number"
                inputMode="numeric"
                min="1"
                max="365"
                step="1"
                placeholder="30"
                {...fieldProps(`${id}-valid-days`, errors.validDays)}
                {...register('validDays', {
                  validate: (value) =>
                    value.trim() === '' ||
                    (/^\d+$/.test(value.trim()) && Number(value) >= 1 && Number(value) <= 365) ||
                    'Enter 1 to 365 days.',
                })}
              />
              <FieldError id={`${id}-valid-days`} error={errors.validDays} />
            </div>
            <div className="field">
              <label htmlFor={`${id}-shop-details`}>Your address, telephone and e-mail</label>
              <textarea
                id={`${id}-shop-details`}
                rows={3}
                {...fieldProps(`${id}-shop-details`, errors.shopDetails)}
                {...register('shopDetails', { maxLength: { value: 500, message: 'At most 500 characters.' } })}
              />
              <FieldError id={`${id}-shop-details`} error={errors.shopDetails} />
            </div>
            <div className="field">
              <label htmlFor={`${id}-logo`}>Logo</label>
              <input
                id={`${id}-logo`}
                type="text"
                placeholder="logo.png"
                aria-describedby={`${id}-logo-hint`}
                {...register('logo', { maxLength: { value: 1024, message: 'At most 1,024 characters.' } })}
              />
              <p id={`${id}-logo-hint`} className="muted">
                The name of a PNG or JPEG file of at most 1 MB in the design library: upload it there first.
              </p>
            </div>
          </fieldset>
          {manage ? (
            <button type="submit" className="button button--primary" disabled={formState.isSubmitting}>
              Save settings
            </button>
          ) : null}
        </fieldset>
        <FormAlert message={error} />
        <FormStatus message={status} />
      </form>
    </section>
  );
}
