/** An activity log entry (spec section 3), as GET /logs and /logs/recent answer it. */
export interface ActivityEntry {
  id: string;
  action_type: 'CREATE' | 'UPDATE' | 'DELETE' | string;
  model_name: string;
  record_id: string;
  user: { id: string; name: string } | null;
  old_data: Record<string, unknown> | null;
  new_data: Record<string, unknown> | null;
  created_at: string;
}
