import {
  arrayContains,
  eq,
  gt,
  gte,
  inArray,
  lt,
  lte,
  ne,
  not,
  notInArray,
  type SQL,
  type SQLWrapper,
  sql,
} from 'drizzle-orm'
import { AppError } from '../../core/errors.ts'
import { ARD_ERRORS } from './errors.ts'
import {
  LIST_FILTER_FIELDS,
  LIST_OPERATORS,
  type ListFilterField,
  type ListOperator,
  ORDER_BY_FIELDS,
  type OrderByField,
} from './model.ts'
import { ardEntries } from './tables.ts'

/**
 * The listing's filter and orderBy grammar:
 *
 *   filter    := condition ( AND condition )*
 *   condition := field operator value
 *   operator  := "=" | "!=" | ">" | "<" | ">=" | "<="
 *   value     := bare-word | "double quoted" | 'single quoted'     (backslash escapes the next character)
 *   orderBy   := field [ ASC | DESC ]
 *
 * A real tokenizer and parser: the result is a list of typed conditions that become drizzle conditions with
 * bound parameters, so no part of the input ever reaches SQL text.
 */

type Token = { kind: 'word' | 'string' | 'operator'; text: string; at: number }

type ListCondition =
  | { field: 'type' | 'publisherId'; operator: '=' | '!='; values: string[] }
  | { field: 'displayName'; operator: ListOperator; value: string }
  | { field: 'tags'; operator: '=' | '!='; value: string }
  | { field: 'updatedAt'; operator: ListOperator; value: Date }

interface ListOrder {
  field: OrderByField
  direction: 'asc' | 'desc'
}

const EQUALITY = ['=', '!='] as const
const FIELD_OPERATORS: Record<ListFilterField, readonly ListOperator[]> = {
  type: EQUALITY,
  publisherId: EQUALITY,
  tags: EQUALITY,
  displayName: LIST_OPERATORS,
  updatedAt: LIST_OPERATORS,
}
const MAX_CONDITIONS = 20
const MAX_VALUE_LENGTH = 256
/** ISO 8601 date or date-time with a four-digit year PostgreSQL can store. */
const ISO_DATE = /^[1-9]\d{3}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/i
export const DEFAULT_ORDER: ListOrder = { field: 'displayName', direction: 'asc' }

function syntaxError(parameter: 'filter' | 'orderBy', message: string, at?: number): AppError {
  return new AppError(ARD_ERRORS.INVALID_ARGUMENT, {
    message: `${parameter}: ${message}`,
    details: { parameter, ...(at === undefined ? {} : { position: at }) },
  })
}

function tokenize(input: string, parameter: 'filter' | 'orderBy'): Token[] {
  const tokens: Token[] = []
  let at = 0
  while (at < input.length) {
    const char = input[at]!
    if (/\s/.test(char)) {
      at += 1
      continue
    }
    const pair = input.slice(at, at + 2)
    if (pair === '>=' || pair === '<=' || pair === '!=') {
      tokens.push({ kind: 'operator', text: pair, at })
      at += 2
      continue
    }
    if (char === '=' || char === '>' || char === '<') {
      tokens.push({ kind: 'operator', text: char, at })
      at += 1
      continue
    }
    if (char === '!') throw syntaxError(parameter, `"!" at position ${at} is only valid in the operator "!="`, at)
    if (char === '(' || char === ')') {
      throw syntaxError(
        parameter,
        `parentheses (position ${at}) are not supported: conditions are joined by AND only`,
        at,
      )
    }
    if (char === '"' || char === "'") {
      let value = ''
      let end = at + 1
      let closed = false
      while (end < input.length) {
        const next = input[end]!
        if (next === '\\' && end + 1 < input.length) {
          value += input[end + 1]
          end += 2
        } else if (next === char) {
          closed = true
          end += 1
          break
        } else {
          value += next
          end += 1
        }
      }
      if (!closed) throw syntaxError(parameter, `the quoted value starting at position ${at} is not closed`, at)
      tokens.push({ kind: 'string', text: value, at })
      at = end
      continue
    }
    // A bare word runs to the next space, operator or parenthesis; quotes inside it are literal (O'Reilly).
    let end = at
    while (end < input.length && !/[\s=!<>()]/.test(input[end]!)) end += 1
    tokens.push({ kind: 'word', text: input.slice(at, end), at })
    at = end
  }
  return tokens
}

const isKeyword = (token: Token | undefined, keyword: string) =>
  token?.kind === 'word' && token.text.toUpperCase() === keyword

export function parseListFilter(input: string): ListCondition[] {
  const tokens = tokenize(input, 'filter')
  const conditions: ListCondition[] = []
  let index = 0
  while (index < tokens.length) {
    if (conditions.length > 0) {
      const joiner = tokens[index]!
      if (isKeyword(joiner, 'OR')) {
        throw syntaxError(
          'filter',
          `OR (position ${joiner.at}) is not supported: conditions are joined by AND`,
          joiner.at,
        )
      }
      if (!isKeyword(joiner, 'AND'))
        throw syntaxError('filter', `expected AND at position ${joiner.at}, found "${joiner.text}"`, joiner.at)
      index += 1
      if (index >= tokens.length) throw syntaxError('filter', 'expected a condition after AND', joiner.at)
    }
    const [fieldToken, operatorToken, valueToken] = [tokens[index]!, tokens[index + 1], tokens[index + 2]]
    conditions.push(parseCondition(fieldToken, operatorToken, valueToken))
    if (conditions.length > MAX_CONDITIONS)
      throw syntaxError('filter', `at most ${MAX_CONDITIONS} conditions are supported`)
    index += 3
  }
  return conditions
}

function parseCondition(
  fieldToken: Token,
  operatorToken: Token | undefined,
  valueToken: Token | undefined,
): ListCondition {
  if (fieldToken.kind !== 'word') {
    throw syntaxError(
      'filter',
      `expected a field name at position ${fieldToken.at}, found "${fieldToken.text}"`,
      fieldToken.at,
    )
  }
  const field = LIST_FILTER_FIELDS.find((name) => name === fieldToken.text)
  if (!field) {
    throw syntaxError(
      'filter',
      `unsupported field "${fieldToken.text}"; supported: ${LIST_FILTER_FIELDS.join(', ')}`,
      fieldToken.at,
    )
  }
  if (operatorToken?.kind !== 'operator') {
    throw syntaxError(
      'filter',
      `expected an operator (${LIST_OPERATORS.join(' ')}) after "${field}"`,
      operatorToken?.at ?? fieldToken.at,
    )
  }
  const operator = LIST_OPERATORS.find((candidate) => candidate === operatorToken.text)!
  if (!FIELD_OPERATORS[field].includes(operator)) {
    throw syntaxError(
      'filter',
      `operator "${operator}" is not supported for field "${field}"; supported: ${FIELD_OPERATORS[field].join(' ')}`,
      operatorToken.at,
    )
  }
  if (!valueToken || valueToken.kind === 'operator') {
    throw syntaxError('filter', `expected a value after "${field} ${operator}"`, valueToken?.at ?? operatorToken.at)
  }
  const value = valueToken.text
  if (value.length > MAX_VALUE_LENGTH)
    throw syntaxError('filter', `values are at most ${MAX_VALUE_LENGTH} characters`, valueToken.at)
  const equality = operator === '=' || operator === '!=' ? operator : null
  switch (field) {
    case 'type':
    case 'publisherId': {
      const values = [
        ...new Set(
          value
            .split(',')
            .map((part) => part.trim())
            .filter(Boolean),
        ),
      ].sort()
      if (values.length === 0)
        throw syntaxError('filter', `expected a value after "${field} ${operator}"`, valueToken.at)
      return { field, operator: equality!, values }
    }
    case 'tags':
      return { field, operator: equality!, value }
    case 'displayName':
      return { field, operator, value }
    case 'updatedAt': {
      const date = new Date(value)
      if (!ISO_DATE.test(value) || Number.isNaN(date.getTime())) {
        throw syntaxError('filter', `updatedAt expects an ISO 8601 date or date-time, found "${value}"`, valueToken.at)
      }
      return { field, operator, value: date }
    }
  }
}

export function parseListOrder(input: string | undefined): ListOrder {
  const tokens = tokenize(input ?? '', 'orderBy')
  const [fieldToken, directionToken, extra] = tokens
  if (!fieldToken) return DEFAULT_ORDER
  const field = ORDER_BY_FIELDS.find((name) => fieldToken.kind === 'word' && name === fieldToken.text)
  if (!field) {
    throw syntaxError(
      'orderBy',
      `unsupported field "${fieldToken.text}"; supported: ${ORDER_BY_FIELDS.join(', ')}`,
      fieldToken.at,
    )
  }
  if (directionToken && !isKeyword(directionToken, 'ASC') && !isKeyword(directionToken, 'DESC')) {
    throw syntaxError(
      'orderBy',
      `expected ASC or DESC after "${field}", found "${directionToken.text}"`,
      directionToken.at,
    )
  }
  if (extra)
    throw syntaxError(
      'orderBy',
      `unexpected "${extra.text}" at position ${extra.at}: one field and a direction`,
      extra.at,
    )
  return { field, direction: isKeyword(directionToken, 'DESC') ? 'desc' : 'asc' }
}

const COMPARE: Record<ListOperator, (left: SQLWrapper, right: unknown) => SQL> = {
  '=': eq,
  '!=': ne,
  '>': gt,
  '<': lt,
  '>=': gte,
  '<=': lte,
}

export function conditionSql(condition: ListCondition): SQL {
  switch (condition.field) {
    case 'type':
    case 'publisherId': {
      const column = condition.field === 'type' ? ardEntries.type : ardEntries.publisherId
      return condition.operator === '=' ? inArray(column, condition.values) : notInArray(column, condition.values)
    }
    case 'tags': {
      const has = arrayContains(ardEntries.tags, [condition.value])
      return condition.operator === '=' ? has : not(has)
    }
    case 'displayName':
      // ARD: the name filter is case-insensitive.
      return COMPARE[condition.operator](sql`lower(${ardEntries.displayName})`, sql`lower(${condition.value})`)
    case 'updatedAt':
      return COMPARE[condition.operator](ardEntries.updatedAt, condition.value)
  }
}

export const ORDER_EXPRESSIONS: Record<OrderByField, SQLWrapper> = {
  displayName: sql`lower(${ardEntries.displayName})`,
  updatedAt: ardEntries.updatedAt,
  identifier: ardEntries.identifier,
  type: ardEntries.type,
}
