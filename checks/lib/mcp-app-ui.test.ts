import { describe, expect, test } from 'bun:test'
import { tool } from '../../tests/support/mcp-artifacts.ts'
import { htmlShape, toolVisibility, uiContentHtml } from './mcp-app-ui.ts'

describe('toolVisibility', () => {
  test.each([
    [undefined, true, 0],
    [['model', 'app'], true, 0],
    [['app'], false, 0],
    [[], false, 1],
    [['model', 'agent'], true, 1],
    ['app', false, 1],
    [{ model: true }, true, 1],
  ] as const)('%j -> model-visible %s with %d problem(s)', (visibility, modelVisible, problems) => {
    const result = toolVisibility(
      tool('t', { _meta: { ui: { resourceUri: 'ui://a', ...(visibility === undefined ? {} : { visibility }) } } }),
    )
    expect(result.modelVisible).toBe(modelVisible)
    expect(result.problems).toHaveLength(problems)
  })
})

describe('UI resource content', () => {
  test('blob content is base64 HTML', () => {
    expect(uiContentHtml({ blob: Buffer.from('<html></html>').toString('base64') })).toBe('<html></html>')
    expect(uiContentHtml({})).toBeNull()
  })

  test('document shape', () => {
    expect(htmlShape('<!-- built --><!DOCTYPE html><html lang="en"></html>')).toEqual({
      empty: false,
      markup: true,
      htmlElement: true,
      doctype: true,
    })
    expect(htmlShape('<div></div>')).toMatchObject({ htmlElement: false, doctype: false, markup: true })
    expect(htmlShape('plain words')).toMatchObject({ markup: false })
  })
})
