import { booleanFlag, type Config, configKeys } from '../../core/config.ts'

export const SCAN_CONFIG = configKeys({ V2_SCAN_ENABLED: booleanFlag.default(false) }, (values) => ({
  /** The gate of POST /api/v2/scan and its poll (503 V2_SCAN_DISABLED when off). */
  v2ScanEnabled: values.V2_SCAN_ENABLED,
}))

/** The kernel's config with the scan feature's own settings, as the scan feature receives it. */
export type ScanConfig = Readonly<Config & ReturnType<typeof SCAN_CONFIG.settings>>
