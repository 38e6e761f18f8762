import { BrandMark } from '@/components/Brand';
import { Icon, type IconName, iconNames, iconSizes, iconUrl } from '@/components/Icon';
import { pageTitle } from '@/config/paths';

/** The sizes the logo is drawn at: the header's (28 px) and the favicon's (16 and 32). */
const BRAND_SIZES = [16, 28, 32] as const;

/**
 * `/test/vector` (a test page): every icon and vector graphic the app uses, at each size it is
 * used at, so a broken one is seen at a glance. A missing icon shows the server's neutral glyph,
 * a dashed square, as the last row does on purpose.
 */
export function TestVectorPage() {
  const favicon = document.querySelector<HTMLLinkElement>('link[rel="icon"]')?.href;
  return (
    <div className="test-vector">
      <title>{pageTitle('Test vector graphics')}</title>
      <h1>Test vector graphics</h1>
      <p className="lead">Every icon and drawing of the app, at the sizes it uses. A dashed square is an icon that is missing.</p>
      <table className="test-vector__table">
        <caption>Icons (served at /icons/lucide/…)</caption>
        <SizesHead sizes={iconSizes} />
        <tbody>
          {iconNames.map((name) => (
            <tr key={name}>
              <th scope="row">
                <a href={iconUrl(name)}>{name}</a>
              </th>
              {iconSizes.map((size) => (
                <td key={size} data-testid={`icon-${name}-${size}`}>
                  <Icon name={name} size={size} />
                </td>
              ))}
            </tr>
          ))}
          <tr>
            <th scope="row">not-an-icon-of-bobbin (the missing glyph)</th>
            {iconSizes.map((size) => (
              <td key={size}>
                {/* Not an icon of the set, on purpose: the server's neutral glyph. */}
                <Icon name={'not-an-icon-of-bobbin' as IconName} size={size} />
              </td>
            ))}
          </tr>
        </tbody>
      </table>
      <table className="test-vector__table">
        <caption>Drawings</caption>
        <SizesHead sizes={BRAND_SIZES} />
        <tbody>
          <tr>
            <th scope="row">The logo</th>
            {BRAND_SIZES.map((size) => (
              <td key={size}>
                <BrandMark className={`brand__mark test-vector__size-${size}`} />
              </td>
            ))}
          </tr>
          <tr>
            <th scope="row">The favicon</th>
            {BRAND_SIZES.map((size) => (
              <td key={size}>{favicon ? <img src={favicon} alt="" width={size} height={size} /> : null}</td>
            ))}
          </tr>
        </tbody>
      </table>
    </div>
  );
}

/** A table's head: the name, then a column for each size. */
function SizesHead({ sizes }: { sizes: readonly number[] }) {
  return (
    <thead>
      <tr>
        <th scope="col">Name</th>
        {sizes.map((size) => (
          <th scope="col" key={size}>
            {size} px
          </th>
        ))}
      </tr>
    </thead>
  );
}
