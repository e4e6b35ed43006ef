import { FluentProvider, makeStaticStyles, webDarkTheme, webLightTheme } from '@fluentui/react-components';
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';

export const THEME_KEY = 'bahi.theme';
export type ThemeName = 'light' | 'dark';

/** Dark unless the browser remembers light (spec section 4). */
export function storedTheme(): ThemeName {
  try {
    return localStorage.getItem(THEME_KEY) === 'light' ? 'light' : 'dark';
  } catch {
    return 'dark';
  }
}

const ThemeContext = createContext<{ theme: ThemeName; setTheme(t: ThemeName): void }>({
  theme: 'dark',
  setTheme: () => {},
});

const useGlobalStyles = makeStaticStyles({
  'html, body, #root': { margin: 0, height: '100%' },
  body: { fontFamily: 'system-ui, "Segoe UI", Roboto, sans-serif' },
  // Keyboard focus stays visible on anything focusable, not only Fluent's own controls.
  ':focus-visible': { outline: '2px solid #479ef5', outlineOffset: '2px' },
});

export function ThemeProvider({ children }: { children: ReactNode }) {
  useGlobalStyles();
  const [theme, set] = useState<ThemeName>(storedTheme);
  const setTheme = useCallback((t: ThemeName) => {
    localStorage.setItem(THEME_KEY, t);
    set(t);
  }, []);
  const value = useMemo(() => ({ theme, setTheme }), [theme, setTheme]);
  return (
    <ThemeContext.Provider value={value}>
      <FluentProvider
        theme={theme === 'dark' ? webDarkTheme : webLightTheme}
        style={{ height: '100%', colorScheme: theme }}
        data-theme={theme}
      >
        {children}
      </FluentProvider>
    </ThemeContext.Provider>
  );
}

export const useTheme = () => useContext(ThemeContext);
