// How the Health page shows durations, sizes and unhealthy items.
import type { HealthItem } from '../../core/contract/health';

export function formatUptime(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds <= 0) return '—';
  const s = Math.floor(seconds);
  const days = Math.floor(s / 86400);
  const hours = Math.floor((s % 86400) / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  if (days > 0) return `${days}d ${hours}h`;
  if (hours > 0) return `${hours}h ${minutes}m`;
  if (minutes > 0) return `${minutes}m ${s % 60}s`;
  return `${s}s`;
}

export function formatBytes(bytes: number | undefined | null): string {
  if (bytes === undefined || bytes === null) return '—';
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(1)} GB`;
  return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
}

/** An item's process memory (RSS) as the page shows it: '—' where nothing was measured (0: no process runs, or it has not answered yet). */
export function formatItemMemory(item: HealthItem): string {
  return item.memoryUsage.rss > 0 ? formatBytes(item.memoryUsage.rss) : '—';
}

/** An item's pid as the page shows it: '—' where there is no process (0). */
export function formatItemPid(item: HealthItem): string {
  return item.pid > 0 ? String(item.pid) : '—';
}

/** Why an item is unhealthy (an application not RUNNING, an adapter not ONLINE), or undefined. */
export function unhealthyReason(item: HealthItem): string | undefined {
  if (item.type === 'Adapter') {
    if (item.connection?.state === 'ONLINE') return undefined;
    const detail = item.connection?.detail ?? (item.lastHealthCheck?.ok === false ? item.lastHealthCheck.detail : undefined);
    return detail ? `${item.connection?.state ?? 'OFFLINE'}: ${detail}` : (item.connection?.state ?? 'OFFLINE');
  }
  return item.state === 'RUNNING' ? undefined : item.detail ? `${item.state}: ${item.detail}` : item.state;
}

/** The figures an application reports of its own work, in words (`jobStartsRefused: 2` → "job starts refused: 2"). */
export function applicationFigures(item: HealthItem): string[] {
  const lines: string[] = [];
  for (const [name, value] of Object.entries(item.figures ?? {})) {
    const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
    lines.push(`${words}: ${typeof value === 'boolean' ? (value ? 'yes' : 'no') : value}`);
  }
  return lines;
}
