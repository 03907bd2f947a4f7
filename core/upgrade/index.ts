// The 2022.1 upgrade check: what a site must change before it upgrades.
export { scanFolder, type ScanOptions } from './scan';
export { formatReport } from './report';
