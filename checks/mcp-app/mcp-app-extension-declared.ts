// An MCP App server answers a host that advertises the UI extension by declaring capabilities.extensions["io.modelcontextprotocol/ui"].
// Spec: https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx (Capability Negotiation)
import { defineCheck, fail, na, pass, warn } from '../../core/engine/check.ts'
import { unreachable } from '../lib/outcomes.ts'
import { declaredUiExtension, UI_EXTENSION_ID } from '../../core/engine/lib/mcp-app.ts'
import { MCP_APPS_SPEC_URL, scannerAdvertisedUi } from '../lib/mcp-app-ui.ts'
import { describeExchange } from '../lib/mcp-checks.ts'
import { isRecord } from '../../core/engine/snapshot.ts'

const DECLARE = `return "capabilities": {"extensions": {"${UI_EXTENSION_ID}": {}}} in the initialize result (the ext-apps SDK does not add it for you)`

export default defineCheck({
  meta: {
    id: 'mcp-app-extension-declared',
    name: 'UI extension declared in capabilities',
    description:
      'A server that declares the MCP Apps extension in its capabilities tells a host up front that its tools come with interactive views, before it lists a single tool.',
    layer: 'discovery',
    applicability: 'mcp-app',
    tier: 'emerging',
    maturity: 'emerging',
    bonus: true,
    maxScore: 2,
    specUrl: MCP_APPS_SPEC_URL,
    recommendation: `When the client advertises ${UI_EXTENSION_ID}, ${DECLARE}.`,
    needs: ['mcp'],
  },
  run({ mcp }) {
    if (!mcp.handshake)
      return unreachable(
        `The handshake did not succeed (initialize: ${describeExchange(mcp.initialize)}), so the capabilities are unknown`,
      )
    const declared = declaredUiExtension(mcp.handshake.capabilities)
    if (declared?.where === 'extensions' && isRecord(declared.value)) {
      return pass(
        `capabilities.extensions["${UI_EXTENSION_ID}"] is declared (${JSON.stringify(declared.value).slice(0, 80)})`,
      )
    }
    if (declared?.where === 'extensions') {
      return warn(
        `capabilities.extensions["${UI_EXTENSION_ID}"] is ${JSON.stringify(declared.value)}, not an object of settings`,
        `Declare the extension as an object: "extensions": {"${UI_EXTENSION_ID}": {}}.`,
      )
    }
    if (declared) {
      return warn(
        `The UI extension is declared under capabilities.experimental, where hosts following SEP-1724 do not look`,
        `Move it to capabilities.extensions: ${DECLARE}.`,
      )
    }
    if (!scannerAdvertisedUi(mcp)) {
      return na(
        `The scanner's initialize did not advertise ${UI_EXTENSION_ID}, so the server was not asked to declare it`,
      )
    }
    return fail(
      `The scanner advertised ${UI_EXTENSION_ID} in initialize, but the server's capabilities do not declare it (${Object.keys(mcp.handshake.capabilities ?? {}).join(', ') || 'none'})`,
      `Negotiate the extension: when the client's capabilities.extensions carries "${UI_EXTENSION_ID}", ${DECLARE}.`,
    )
  },
})
