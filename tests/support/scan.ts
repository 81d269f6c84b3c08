import { type ScanEngine, type ScanOptions, type ScanReport, scan } from '../../core/engine/scan.ts'
import { requestTarget } from '../../core/engine/target.ts'

/**
 * Scans a target named as a user names it (a host or URL, and a pinned MCP endpoint): parsed once as the API and
 * the CLI parse it, local targets allowed where private ones are, then handed to the engine.
 */
export async function scanUrl(
  url: string,
  engine: ScanEngine,
  options: ScanOptions & { mcpUrl?: string } = {},
): Promise<ScanReport> {
  const { mcpUrl, ...scanOptions } = options
  return scan(requestTarget(url, { mcpUrl, allowLocal: engine.config.scanner.allowPrivate }), engine, scanOptions)
}
