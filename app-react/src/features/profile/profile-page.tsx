import * as Tabs from '@radix-ui/react-tabs';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';

import { type ProfileTab, pageTitle, profileTabs } from '@/config/paths';

import { AuthenticatorApps } from './components/AuthenticatorApps';
import { ChangePassword } from './components/ChangePassword';
import { DeleteAccount, type TeamLink } from './components/DeleteAccount';
import { MyData } from './components/MyData';
import { ProfileDetails } from './components/ProfileDetails';
import { SignOut } from './components/SignOut';

function isProfileTab(value: string | null): value is ProfileTab {
  return value !== null && Object.hasOwn(profileTabs, value);
}

/**
 * The breadcrumb of the profile page (docs/behaviour.md, "Screens and routes"): 'Profile', with the
 * active tab's name in brackets when `?tab=` names one of the tabs.
 */
export function profileCrumb(tab: string | null): string {
  return isProfileTab(tab) ? `Profile (${profileTabs[tab]})` : 'Profile';
}

/**
 * `/profile`: the person's details, security, notifications and invites, one tab each. The
 * invites are the teams feature's (the app passes them in as `invites`), and so is opening a team
 * the account's deletion names (`teamLink`).
 */
export function ProfilePage({ invites, teamLink }: { invites?: ReactNode; teamLink?: TeamLink }) {
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const active: ProfileTab = isProfileTab(requested) ? requested : 'profile';
  const crumb = profileCrumb(requested);

  const choose = (tab: string) => {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set('tab', tab);
        return next;
      },
      { replace: true },
    );
  };

  return (
    <div className="profile">
      <title>{pageTitle(crumb)}</title>
      <nav className="breadcrumb" aria-label="Breadcrumb">
        <ol>
          <li aria-current="page">{crumb}</li>
        </ol>
      </nav>
      <h1>Your account</h1>
      <Tabs.Root className="tabs" value={active} onValueChange={choose}>
        <Tabs.List className="tabs__list" aria-label="Account sections">
          {(Object.entries(profileTabs) as [ProfileTab, string][]).map(([tab, label]) => (
            <Tabs.Trigger key={tab} className="tabs__tab" value={tab}>
              {label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        <Tabs.Content className="tabs__panel" value="profile">
          <ProfileDetails />
          <MyData />
          <DeleteAccount teamLink={teamLink} />
        </Tabs.Content>
        <Tabs.Content className="tabs__panel" value="security">
          <ChangePassword />
          <AuthenticatorApps />
          <SignOut />
        </Tabs.Content>
        <Tabs.Content className="tabs__panel" value="notifications">
          <p>No notifications yet. News about your teams will appear here.</p>
        </Tabs.Content>
        <Tabs.Content className="tabs__panel" value="invites">
          {invites ?? <p>Invites to join a team will appear here, to accept or decline.</p>}
        </Tabs.Content>
      </Tabs.Root>
    </div>
  );
}
