import { Link } from '@fluentui/react-components';
import type { MouseEvent, ReactNode } from 'react';
import { useHref, useNavigate } from 'react-router';

/**
 * Fluent's link look (readable in both themes) with client-side navigation. `state` goes with
 * the navigation (react-router's location state), e.g. what the next screen can show before its
 * own data arrives.
 */
export function RouterLink(props: { to: string; children: ReactNode; className?: string; state?: unknown }) {
  const navigate = useNavigate();
  const href = useHref(props.to);
  const click = (e: MouseEvent) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(props.to, props.state === undefined ? undefined : { state: props.state });
  };
  return (
    <Link href={href} onClick={click} className={props.className}>
      {props.children}
    </Link>
  );
}
