/** The words people use for a need, mapped to market categories: how discover reads an intent. */
import { CATEGORIES, type CategorySlug } from '../../core/engine/lib/categories.ts'

/**
 * How people name a need of each category in their own words, beyond the classifier's keywords: discover maps an
 * intent's words to categories with these and the classifier's single-word keywords (./intent.ts), so that
 * "outdoor gear" or "a store" finds a shop whose pages say neither. Lower-case single words, singular.
 */
export const CATEGORY_SYNONYMS: Readonly<Record<CategorySlug, readonly string[]>> = {
  'ecommerce-retail': [
    'store',
    'shop',
    'retailer',
    'outfitter',
    'boutique',
    'buy',
    'purchase',
    'gear',
    'equipment',
    'apparel',
    'clothes',
    'clothing',
    'garment',
    'wear',
    'outfit',
    'merchandise',
    'goods',
    'product',
    'accessory',
    'supply',
    'footwear',
    'shoe',
    'boot',
    'jacket',
    'coat',
    'sock',
    'backpack',
    'bag',
    'tent',
    'kit',
  ],
  'developer-tools': [
    'developer',
    'programmer',
    'coder',
    'library',
    'toolkit',
    'compiler',
    'debugger',
    'linter',
    'repo',
    'tooling',
  ],
  'ai-ml': ['model', 'assistant', 'prompt', 'transcription', 'translation', 'summarization', 'classifier'],
  'payments-fintech': [
    'pay',
    'checkout',
    'money',
    'transfer',
    'remittance',
    'card',
    'bank',
    'invoice',
    'payout',
    'budget',
    'tax',
  ],
  'saas-productivity': ['task', 'todo', 'note', 'meeting', 'team', 'organize', 'planner', 'ticket', 'schedule'],
  'media-publishing': ['news', 'article', 'story', 'read', 'journalist', 'headline', 'paper', 'newspaper'],
  'travel-hospitality': [
    'trip',
    'journey',
    'lodging',
    'stay',
    'room',
    'inn',
    'motel',
    'hostel',
    'getaway',
    'table',
    'eat',
    'dinner',
    'lunch',
    'food',
  ],
  education: ['class', 'study', 'tutor', 'teach', 'training', 'lecture', 'exam', 'homework', 'skill'],
  'health-wellness': [
    'doctor',
    'physician',
    'gym',
    'exercise',
    'diet',
    'sleep',
    'yoga',
    'prescription',
    'medicine',
    'appointment',
  ],
  'marketing-analytics': ['ad', 'promotion', 'traffic', 'funnel', 'newsletter', 'outreach', 'tracking'],
  'security-identity': ['login', 'signin', '2fa', 'otp', 'passkey', 'breach', 'hack', 'antivirus', 'protect'],
  'cloud-infrastructure': ['host', 'deploy', 'vps', 'domain', 'backup', 'scale', 'bucket', 'cluster'],
  'jobs-hr': ['job', 'career', 'hire', 'recruiter', 'vacancy', 'cv', 'salary', 'employment', 'gig'],
  'real-estate': ['home', 'flat', 'lease', 'housing', 'realty', 'roommate', 'sublet'],
  'gaming-entertainment': ['play', 'film', 'watch', 'listen', 'song', 'show', 'fun', 'ticket', 'concert'],
}

/** A word's plain singular form: the key the category index uses ("backpacks" and "backpack" alike). */
export function singular(word: string): string {
  const lower = word.toLowerCase()
  if (lower.length > 4 && lower.endsWith('ies')) return `${lower.slice(0, -3)}y`
  if (lower.length > 4 && /(ss|sh|ch|x)es$/.test(lower)) return lower.slice(0, -2)
  if (lower.length > 3 && lower.endsWith('s') && !lower.endsWith('ss')) return lower.slice(0, -1)
  return lower
}

/**
 * Words people use for the same thing: discover also matches an intent word through the others of its group
 * ("apparel" finds a page about clothing). Lower-case single words, singular.
 */
export const SYNONYM_GROUPS: readonly (readonly string[])[] = [
  ['apparel', 'clothing', 'clothes', 'garment', 'wear', 'outfit', 'attire'],
  ['gear', 'equipment', 'kit', 'supply', 'outfitter'],
  ['store', 'shop', 'retailer', 'boutique', 'outlet', 'outfitter'],
  ['backpack', 'rucksack', 'daypack', 'knapsack'],
  ['shoe', 'footwear', 'sneaker', 'boot'],
  ['jacket', 'coat', 'parka', 'anorak'],
  ['sock', 'hosiery'],
  ['hotel', 'lodging', 'accommodation', 'inn', 'motel', 'hostel'],
  ['flight', 'airline', 'airfare', 'plane'],
  ['course', 'class', 'lesson', 'tutorial', 'training'],
  ['doctor', 'physician', 'clinic', 'telehealth'],
  ['job', 'vacancy', 'opening', 'career', 'position'],
  ['apartment', 'flat', 'condo'],
  ['payment', 'pay', 'checkout'],
  ['movie', 'film', 'cinema'],
  ['laptop', 'notebook', 'computer'],
  ['phone', 'smartphone', 'mobile'],
  ['restaurant', 'dining', 'eatery', 'bistro'],
  ['hosting', 'host', 'server'],
  ['news', 'headline', 'journalism'],
]

/** The other words of a word's synonym groups, singular. */
export function synonymsOf(word: string): string[] {
  const key = singular(word)
  return [...new Set(SYNONYM_GROUPS.filter((group) => group.includes(key)).flat())].filter((other) => other !== key)
}

let needIndex: Map<string, CategorySlug[]> | null = null

/** Categories a single word of a need points at: their synonyms and their one-word classifier keywords. */
export function categoriesForWord(word: string): CategorySlug[] {
  if (!needIndex) {
    needIndex = new Map()
    for (const category of CATEGORIES) {
      const words = [
        ...Object.keys(category.keywords).filter((keyword) => /^[\p{L}\p{N}]+$/u.test(keyword)),
        ...CATEGORY_SYNONYMS[category.slug],
      ]
      for (const key of new Set(words.map(singular))) needIndex.set(key, [...(needIndex.get(key) ?? []), category.slug])
    }
  }
  return needIndex.get(singular(word)) ?? []
}
