import { useCallback, useEffect, useState } from 'react';
import { useLiveEvent } from '../../shared/live-events.tsx';
import {
  fetchNotifications,
  markAllRead,
  markRead,
  type Notification,
  type NotificationList,
} from './api.ts';

/**
 * A user's notifications, refreshed when the live stream brings one. Failed fetches and
 * mark-read calls are only logged (spec section 7).
 */
export function useNotifications(limit: number) {
  const [list, setList] = useState<NotificationList>({ notifications: [], unreadCount: 0 });
  const refresh = useCallback(async () => {
    try {
      setList(await fetchNotifications(limit));
    } catch (error) {
      console.error('Failed to fetch notifications', error);
    }
  }, [limit]);
  useEffect(() => {
    void refresh();
  }, [refresh]);
  useLiveEvent('notification', () => void refresh());
  // The stream was down and may have missed a notification: read them again.
  useEffect(() => {
    const onResync = () => void refresh();
    window.addEventListener('bahi:resync', onResync);
    return () => window.removeEventListener('bahi:resync', onResync);
  }, [refresh]);
  const read = useCallback(
    async (n: Notification) => {
      if (n.is_read) return;
      try {
        await markRead(n.id);
      } catch (error) {
        console.error('Failed to mark the notification as read', error);
      }
      await refresh();
    },
    [refresh],
  );
  const readAll = useCallback(async () => {
    try {
      await markAllRead();
    } catch (error) {
      console.error('Failed to mark all notifications as read', error);
    }
    await refresh();
  }, [refresh]);
  return { ...list, refresh, read, readAll };
}
