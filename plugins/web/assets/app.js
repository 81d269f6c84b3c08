// Progressive enhancement only: every page works without this file. It streams a scan's progress from
// /api/scan/stream instead of waiting for the form's POST, wires the copy buttons of code blocks, re-checks a
// check in place and lets a partial report update itself. Everything a scan sends is written with textContent;
// the only markup taken in is our own server's report page, parsed inert by DOMParser and moved node by node.
'use strict'

function enhanceScanForm(form) {
  const panel = document.getElementById('scan-progress')
  if (!panel) return
  const status = document.getElementById('progress-status')
  const layerList = document.getElementById('progress-layers')
  const checkList = document.getElementById('progress-checks')
  const layers = new Map()

  function layerRow(id, name) {
    let row = layers.get(id)
    if (row) return row
    const item = document.createElement('li')
    item.className = 'layer'
    const label = document.createElement('label')
    label.htmlFor = `progress-${id}`
    label.textContent = name
    const bar = document.createElement('progress')
    bar.id = `progress-${id}`
    bar.max = 1
    bar.value = 0
    const count = document.createElement('span')
    count.className = 'layer-score'
    item.append(label, bar, count)
    layerList.append(item)
    row = { bar, count, total: 0, done: 0 }
    layers.set(id, row)
    return row
  }

  function update(row) {
    row.bar.max = Math.max(row.total, 1)
    row.bar.value = row.done
    row.count.textContent = `${row.done} / ${row.total}`
  }

  form.addEventListener('submit', (event) => {
    const input = form.querySelector('input[name="url"]')
    const target = input.value.trim()
    if (!target || typeof EventSource === 'undefined') return
    event.preventDefault()
    panel.hidden = false
    layerList.replaceChildren()
    checkList.replaceChildren()
    layers.clear()
    status.textContent = `Scanning ${target}…`
    const button = form.querySelector('button[type="submit"]')
    button.disabled = true
    let finished = false
    let opened = false
    const force = form.querySelector('input[name="force"]') ? '&force=1' : ''
    const pinned = form.querySelector('input[name="mcpUrl"]')?.value
    const mcp = pinned ? `&mcp=${encodeURIComponent(pinned)}` : ''
    // The audit shape carries `url`, the address of the result's own report (its port, its MCP server).
    const url = `/api/scan/stream?domain=${encodeURIComponent(target)}${mcp}${force}&format=audit`
    const source = new EventSource(url)
    source.onopen = () => {
      opened = true
    }
    source.onmessage = (message) => {
      const frame = JSON.parse(message.data)
      if (frame.type === 'kind_detected') status.textContent = `Scanning ${target} (${frame.kind})…`
      if (frame.type === 'check_start') {
        const row = layerRow(frame.layerId, frame.layerName)
        row.total++
        update(row)
      }
      if (frame.type === 'check_complete') {
        const row = layerRow(frame.layerId, frame.layerName)
        row.done++
        update(row)
        const item = document.createElement('li')
        item.textContent = `${frame.checkName}: ${frame.status}`
        item.className = `tick status-${frame.status}`
        checkList.append(item)
      }
      if (frame.type === 'scan_complete') {
        finished = true
        source.close()
        const result = frame.result
        const report = new URL(result.url, window.location.href).pathname
        status.textContent = frame.servedFromCache
          ? `From the cache: ${result.score}/100, grade ${result.grade}, scanned ${ago(frame.resultAgeSeconds)}. Opening the report, where a fresh scan is one click…`
          : `Done: ${result.score}/100, grade ${result.grade}. Opening the report…`
        window.location.assign(frame.servedFromCache ? `${report}?cached` : report)
      }
      if (frame.type === 'error') {
        finished = true
        source.close()
        // A protected MCP server has a page of its own: why there is no score, and how to scan it with a token.
        if (frame.code === 'MCP_AUTH_REQUIRED' && frame.mcpUrl) {
          status.textContent = 'This MCP server requires authentication. Opening its page…'
          window.location.assign(`/mcp/${encodeURIComponent(frame.mcpUrl)}`)
          return
        }
        status.textContent = `The scan failed: ${frame.message || frame.error}`
        button.disabled = false
      }
    }
    source.onerror = async () => {
      if (finished) return
      source.close()
      button.disabled = false
      if (opened) {
        status.textContent = 'The connection to the scan was lost. Try again, or reload the page.'
        return
      }
      // Refused before the stream opened (a target that is not a domain, a limit): EventSource hides the answer,
      // so it is read once more as JSON to show the server's own message.
      document.getElementById('progress-title').textContent = 'Not scanned'
      status.textContent = await refusal(url)
    }
  })
}

/** "just now", "9 minutes ago": the words the report pages use for an age (components.tsx `ago`). */
function ago(seconds) {
  for (const [size, name] of [
    [86400, 'day'],
    [3600, 'hour'],
    [60, 'minute'],
  ]) {
    if (seconds >= size) {
      const count = Math.floor(seconds / size)
      return `${count} ${name}${count === 1 ? '' : 's'} ago`
    }
  }
  return 'just now'
}

async function refusal(url) {
  try {
    const response = await fetch(url, { headers: { accept: 'application/json' } })
    const body = await response.json()
    if (response.status === 429)
      return `${body.message || 'Scan limit reached'}. ${retryAdvice(Number(response.headers.get('retry-after')))}`
    if (typeof body.message === 'string') return `The scan was refused: ${body.message}`
  } catch {
    // no JSON answer: the generic message below
  }
  return 'The scan could not start. Check the address and try again.'
}

/** When the next scan is possible, and what lifts the limit (the error page says the same). */
function retryAdvice(seconds) {
  const when = seconds > 0 ? `The next scan is possible in about ${Math.max(1, Math.ceil(seconds / 60))} minutes. ` : ''
  return `${when}A scan key (Authorization: Bearer, with the API or the CLI's --server) lifts the scan limits; see /api.`
}

// Copy buttons of code blocks (delegated, so blocks swapped in later work too). The Clipboard API needs a secure
// context; elsewhere the code is selected and copied with the older command.
async function copy(button) {
  const code = document.getElementById(button.dataset.copyTarget)
  if (!code) return
  try {
    await navigator.clipboard.writeText(code.textContent)
  } catch {
    window.getSelection().selectAllChildren(code)
    document.execCommand('copy')
  }
  button.textContent = 'Copied'
  setTimeout(() => {
    button.textContent = 'Copy'
  }, 2000)
}

/** Our own report page, parsed inert. */
async function fetchReport(url, init) {
  const response = await fetch(url, init)
  const page = new DOMParser().parseFromString(await response.text(), 'text/html')
  return { response, page }
}

/** Replaces what the user sees of the score: the summary (gauge, grade, verdict) and the layer bars. */
function swapScore(page) {
  for (const id of ['report-summary', 'report-layers']) {
    const fresh = page.getElementById(id)
    const current = document.getElementById(id)
    if (fresh && current) current.replaceWith(document.adoptNode(fresh))
  }
}

// Re-check: the server re-runs the check and renders the report with its result (saved or not, it says which);
// the card the user pressed, and every card of the same check, are replaced where they are, then the score.
async function recheck(form) {
  const card = form.closest('article.check')
  const button = form.querySelector('button')
  const label = button.firstChild
  const idle = label.textContent
  button.disabled = true
  label.textContent = 'Re-checking…'
  card.setAttribute('aria-busy', 'true')
  try {
    const { response, page } = await fetchReport(form.action, {
      method: 'POST',
      body: new URLSearchParams(new FormData(form)),
    })
    if (!response.ok)
      throw new Error(page.querySelector('main p')?.textContent || `The server answered ${response.status}`)
    const checkId = card.dataset.checkId
    let replacement = null
    for (const fresh of page.querySelectorAll(`article.check[data-check-id="${CSS.escape(checkId)}"]`)) {
      const current = document.getElementById(fresh.id)
      if (!current) continue
      const adopted = document.adoptNode(fresh)
      current.replaceWith(adopted)
      if (current === card) replacement = adopted
    }
    swapScore(page)
    const notice = replacement?.querySelector('.recheck-notice')
    if (notice) {
      notice.tabIndex = -1
      notice.focus()
    }
  } catch (error) {
    card.removeAttribute('aria-busy')
    button.disabled = false
    label.textContent = idle
    let notice = card.querySelector('.recheck-notice')
    if (!notice) {
      notice = document.createElement('p')
      notice.className = 'notice recheck-notice'
      notice.setAttribute('role', 'status')
      card.querySelector('header').after(notice)
    }
    notice.textContent = `The re-check failed: ${error.message}`
  }
}

// A partial report: rendered checks run in the background for a few seconds. The report itself is read again with a
// growing interval (the page of this very target: its port, its MCP server) and, once it no longer says the analysis
// is running, it replaces the one on screen.
function followAnalysis(notice) {
  let delay = 2000
  const poll = async () => {
    try {
      const { response, page: fresh } = await fetchReport(notice.dataset.followReport, { cache: 'no-store' })
      const main = fresh.getElementById('main')
      if (response.ok && main && !fresh.getElementById('analysis-status')) {
        document.getElementById('main').replaceWith(document.adoptNode(main))
        const status = document.createElement('p')
        status.className = 'notice'
        status.setAttribute('role', 'status')
        status.textContent = 'The background checks finished: this is the final report.'
        document.querySelector('#report-summary .summary-text')?.append(status)
        return
      }
    } catch {
      // a lost request is retried below
    }
    delay = Math.min(delay * 1.5, 30000)
    setTimeout(poll, delay)
  }
  setTimeout(poll, delay)
}

document.addEventListener('click', (event) => {
  const button = event.target.closest('[data-copy-target]')
  if (button) copy(button)
})
// A fresh scan posts and waits for the scan: the button says so meanwhile.
document.addEventListener('submit', (event) => {
  const button = event.target.closest('form[data-rescan]')?.querySelector('button')
  if (!button) return
  button.textContent = 'Scanning… (a few seconds)'
  button.setAttribute('aria-busy', 'true')
})
document.addEventListener('submit', (event) => {
  const form = event.target.closest('form[data-recheck]')
  if (!form || typeof DOMParser === 'undefined') return
  event.preventDefault()
  recheck(form)
})

// A running journey: steps are appended as the agent takes them; the finished run is rendered by the server.
function followJourney(status) {
  if (typeof EventSource === 'undefined') return
  const steps = document.getElementById('journey-steps')
  const source = new EventSource(status.dataset.journeyStream)
  source.addEventListener('trajectory', (message) => {
    const { step } = JSON.parse(message.data)
    const item = document.createElement('li')
    const label = document.createElement('strong')
    label.textContent = step.label
    const meta = document.createElement('span')
    meta.className = 'muted'
    meta.textContent = ` ${step.type} · ${step.tool || step.action} · ${step.status} · ${step.duration_ms} ms`
    item.append(label, meta)
    steps.append(item)
  })
  const finish = () => {
    source.close()
    window.location.reload()
  }
  source.addEventListener('result', finish)
  source.addEventListener('error', (message) => {
    if (message.data) finish()
  })
}

for (const form of document.querySelectorAll('form[data-scan-form]')) enhanceScanForm(form)
const journey = document.querySelector('[data-journey-stream]')
if (journey) followJourney(journey)
// The journeys page: the tasks' {domain} slots read the domain being typed.
const domainSource = document.querySelector('[data-domain-source]')
if (domainSource) {
  domainSource.addEventListener('input', () => {
    const domain = domainSource.value.trim()
    for (const slot of document.querySelectorAll('[data-domain-slot]')) slot.textContent = domain || 'example.com'
  })
}
const analysis = document.querySelector('[data-follow-report]')
if (analysis) followAnalysis(analysis)
