import { makeStyles, mergeClasses, Text, tokens } from '@fluentui/react-components';
import type { HTMLAttributes, ReactNode } from 'react';

const useStyles = makeStyles({
  panel: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalM,
    padding: tokens.spacingHorizontalL,
    borderRadius: tokens.borderRadiusLarge,
    backgroundColor: tokens.colorNeutralBackground1,
    color: tokens.colorNeutralForeground1,
    boxShadow: tokens.shadow4,
    border: `1px solid ${tokens.colorTransparentStroke}`,
    minWidth: 0,
  },
});

/**
 * A card surface in Fluent's colours. Plain markup rather than Fluent's Card, whose focus and
 * selection machinery no screen here uses and every first page would carry (~9 kB gzip).
 */
export function Panel({
  title,
  className,
  children,
  ...rest
}: { title?: ReactNode; children?: ReactNode } & HTMLAttributes<HTMLDivElement>) {
  const styles = useStyles();
  return (
    <div className={mergeClasses(styles.panel, className)} {...rest}>
      {title ? (
        <Text as="h2" weight="semibold" size={400} style={{ margin: 0 }}>
          {title}
        </Text>
      ) : null}
      {children}
    </div>
  );
}
