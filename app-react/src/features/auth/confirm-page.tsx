import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';

import { paths } from '@/config/paths';
import { notify } from '@/lib/toast';

import { AuthCard } from './AuthCard';

const EMAIL_CONFIRMED = 'Your e-mail address is confirmed.';

/**
 * `/auth/confirm`: where a sign-up's confirmation (the e-mailed link, through `/auth/callback`,
 * or its code) lands, signed in. Says so, and goes on to the dashboard.
 */
export function ConfirmPage() {
  const navigate = useNavigate();
  // Once: React runs effects twice in development.
  const done = useRef(false);

  useEffect(() => {
    if (done.current) return;
    done.current = true;
    notify.success(EMAIL_CONFIRMED);
    void navigate(paths.dashboard, { replace: true });
  }, [navigate]);

  return (
    <AuthCard title="E-mail confirmed">
      <p role="status">Your address is confirmed and you are signed in.</p>
    </AuthCard>
  );
}
