import { makeStyles, tokens } from '@fluentui/react-components';

const useStyles = makeStyles({
  avatar: {
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    borderRadius: '50%',
    backgroundColor: tokens.colorBrandBackground,
    color: tokens.colorNeutralForegroundOnBrand,
    fontWeight: tokens.fontWeightSemibold,
    flexShrink: 0,
    userSelect: 'none',
  },
});

/** The first letter of the name in a circle (spec section 2): lighter than Fluent's Avatar. */
export function InitialAvatar({ name, size = 28 }: { name: string; size?: number }) {
  const styles = useStyles();
  return (
    <span
      className={styles.avatar}
      style={{ width: size, height: size, fontSize: Math.round(size * 0.45) }}
      aria-hidden
      data-testid="avatar"
    >
      {name.charAt(0).toUpperCase()}
    </span>
  );
}
