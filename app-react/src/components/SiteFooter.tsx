import { Link } from 'react-router';

import { useAppConfig } from '@/config/app-config-context';
import { paths } from '@/config/paths';

import { CoreVersion } from './CoreVersion';

export function SiteFooter() {
  const { version } = useAppConfig();
  return (
    <footer className="site-footer">
      <span>Bobbin{version ? ` ${version}` : ''}</span>
      <Link to={paths.contact}>Contact</Link>
      <CoreVersion />
    </footer>
  );
}
