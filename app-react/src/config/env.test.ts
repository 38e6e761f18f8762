import { readConfig } from './env';

function documentWith(scriptText: string | null): Document {
  const doc = document.implementation.createHTMLDocument('t');
  if (scriptText !== null) {
    const script = doc.createElement('script');
    script.id = 'bobbin-config';
    script.type = 'application/json';
    script.textContent = scriptText;
    doc.head.append(script);
  }
  return doc;
}

describe('readConfig', () => {
  it('reads the environment and version the server injected', () => {
    expect(readConfig(documentWith('{"environment":"staging","version":"1.2.3"}'))).toEqual({
      environment: 'staging',
      version: '1.2.3',
    });
  });

  it('falls back to production when the config is missing', () => {
    expect(readConfig(documentWith(null)).environment).toBe('production');
  });

  it('falls back to production when the config is not JSON or names no known environment', () => {
    expect(readConfig(documentWith('{not json')).environment).toBe('production');
    expect(readConfig(documentWith('{"environment":"qa"}')).environment).toBe('production');
    expect(readConfig(documentWith('null')).environment).toBe('production');
  });
});
