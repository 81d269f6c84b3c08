import type { FetchedPage } from '../../journeys/types.ts'
import { pricesIn } from '../../journeys/prices.ts'

/** A fetched page as the judges read it: a readable 200 HTML page unless `fields` say otherwise; prices as its text states them. */
export function fetchedPage(url: string, fields: Partial<FetchedPage> = {}): FetchedPage {
  return {
    stepId: 's1',
    url,
    finalUrl: url,
    status: 200,
    contentType: 'text/html',
    fetchMethod: 'http',
    challenged: false,
    jsOnly: false,
    title: '',
    text: '',
    headings: [],
    links: [],
    emails: [],
    description: '',
    lead: '',
    prices: pricesIn(fields.text ?? '', 'text'),
    forms: [],
    headers: {},
    json: null,
    bodyDigest: '',
    ...fields,
  }
}
