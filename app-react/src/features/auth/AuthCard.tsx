import type { ReactNode } from 'react';

import { Brand } from '@/components/Brand';
import { pageTitle } from '@/config/paths';

interface AuthCardProps {
  /** The page's title, also the document title (docs/behaviour.md, "Screens and routes"). */
  title: string;
  children: ReactNode;
}

/** The frame of the sign-in screens, which have no layout (docs/behaviour.md, "Screens and routes"). */
export function AuthCard({ title, children }: AuthCardProps) {
  return (
    <main className="auth">
      <title>{pageTitle(title)}</title>
      <div className="auth__brand">
        <Brand />
      </div>
      <section className="card auth__card" aria-labelledby="auth-title">
        <h1 id="auth-title">{title}</h1>
        {children}
      </section>
    </main>
  );
}
