// Types of electron-archive.mjs for the tests that import it.
export declare const ROOT: string;
export declare function electronVersion(): string;
export declare function archiveName(version?: string, platform?: string, arch?: string): string;
export declare function electronCacheRoot(env?: Record<string, string | undefined>, platform?: string, home?: string): string;
export declare function cachedArchivePath(version?: string, env?: Record<string, string | undefined>, platform?: string, arch?: string): string;
export type Found = { path: string; how: string; problem?: undefined } | { problem: string; path?: undefined };
export declare function findElectronArchive(options?: { given?: string; env?: Record<string, string | undefined>; version?: string }): Found | undefined;
export declare function noElectronHint(version?: string): string[];
