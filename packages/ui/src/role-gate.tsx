import type { ReactNode } from 'react';
import { type Role, useSession } from './session.ts';

/**
 * Shows its children only to these roles (spec section 6: e.g. create buttons for Admin and
 * Manager). The server decides as well; this only spares others a button that would be refused.
 */
export function RoleGate(props: { roles: readonly Role[]; children: ReactNode; otherwise?: ReactNode }) {
  const { user } = useSession();
  return <>{user && props.roles.includes(user.role) ? props.children : (props.otherwise ?? null)}</>;
}
