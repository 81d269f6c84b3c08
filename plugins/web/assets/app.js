// Progressive enhancement only: every page works without this file. It streams a scan's progress from
// /api/scan/stream instead of waiting for the form's POST, and adds copy buttons to the badge snippets.
// Everything a scan sends is written with textContent, never as markup.
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
    const source = new EventSource(`/api/scan/stream?domain=${encodeURIComponent(target)}`)
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
        status.textContent = `Done: ${result.score}/100, grade ${result.grade}. Opening the report…`
        window.location.assign(`/site/${encodeURIComponent(result.domain)}`)
      }
      if (frame.type === 'error') {
        finished = true
        source.close()
        status.textContent = `The scan failed: ${frame.message || frame.error}`
        button.disabled = false
      }
    }
    source.onerror = () => {
      if (finished) return
      source.close()
      status.textContent = 'The connection to the scan was lost. Try again, or reload the page.'
      button.disabled = false
    }
  })
}

function addCopyButtons() {
  for (const field of document.querySelectorAll('textarea[data-copy]')) {
    if (!navigator.clipboard) return
    const button = document.createElement('button')
    button.type = 'button'
    const label = document.querySelector(`label[for="${field.id}"]`)
    button.textContent = `Copy ${label ? label.textContent : ''}`.trim()
    button.addEventListener('click', async () => {
      await navigator.clipboard.writeText(field.value)
      button.textContent = 'Copied'
    })
    field.after(button)
  }
}

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
addCopyButtons()
