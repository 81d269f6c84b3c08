/**
 * The fixed market-category taxonomy (competitors, leaderboard, statistics, discover): slugs, names, and the
 * keywords and schema.org types that point at each. The classifier that weighs them is
 * core/engine/collectors/lib/classify-category.ts.
 */

export interface CategoryDefinition {
  slug: string
  name: string
  /** Lower-case words or phrases and their weight (1 weak, 2 typical, 3 decisive); a plural `s`/`es` also matches. */
  keywords: Readonly<Record<string, number>>
  /** schema.org `@type` names (as extractJsonLd normalises them) and the points each one adds when declared. */
  jsonLdTypes: Readonly<Record<string, number>>
}

// biome-ignore format: weight tables, packed a band of weights per line so that each category reads at a glance
export const CATEGORIES = [
  {
    slug: 'ecommerce-retail',
    name: 'E-commerce & Retail',
    keywords: {
      'online store': 3, 'online shop': 3, 'shop now': 3, 'add to cart': 3, 'shopping cart': 3, 'free shipping': 3,
      'new arrivals': 3, 'in stock': 3, ecommerce: 2, 'e-commerce': 2, shop: 2, shopping: 2, shipping: 2, retail: 2,
      fashion: 2, clothing: 2, apparel: 2, furniture: 2, groceries: 2, 'buy online': 2, cart: 1, checkout: 1,
      marketplace: 1, deals: 1, products: 1, gear: 1,
    },
    jsonLdTypes: { OnlineStore: 6, Store: 5, ClothingStore: 6, Product: 4, ProductGroup: 4, Offer: 2, AggregateOffer: 3 },
  },
  {
    slug: 'developer-tools',
    name: 'Developer Tools',
    keywords: {
      sdk: 3, 'developer platform': 3, 'software development': 3, 'ci/cd': 3, 'continuous integration': 3,
      'api reference': 3, developer: 2, cli: 2, 'open source': 2, 'open-source': 2, coding: 2, git: 2, devops: 2,
      debugging: 2, ide: 2, repository: 2, framework: 2, programming: 2, 'code review': 3, api: 1, github: 1, code: 1,
      deploy: 1, documentation: 1,
    },
    jsonLdTypes: { SoftwareSourceCode: 5, APIReference: 5, TechArticle: 1 },
  },
  {
    slug: 'ai-ml',
    name: 'AI & Machine Learning',
    keywords: {
      'artificial intelligence': 3, 'machine learning': 3, llm: 3, 'large language model': 3, 'generative ai': 3,
      genai: 3, 'deep learning': 3, 'computer vision': 3, 'ai agent': 3, 'ai model': 3, 'foundation model': 3,
      gpt: 2, neural: 2, inference: 2, chatbot: 2, embeddings: 2, 'fine-tuning': 2, nlp: 2, ai: 1, copilot: 1,
    },
    jsonLdTypes: {},
  },
  {
    slug: 'payments-fintech',
    name: 'Payments & Fintech',
    keywords: {
      payment: 3, 'payment processing': 3, fintech: 3, 'financial infrastructure': 3, 'card issuing': 3, payouts: 3,
      'money transfer': 3, cryptocurrency: 3, banking: 2, bank: 2, invoicing: 2, invoice: 2, 'credit card': 2,
      crypto: 2, lending: 2, loans: 2, merchant: 2, trading: 2, investing: 2, billing: 1, wallet: 1, financial: 1,
      finance: 1, accounting: 1,
    },
    jsonLdTypes: {
      FinancialService: 6, BankOrCreditUnion: 6, PaymentService: 5, FinancialProduct: 4, PaymentCard: 4,
      LoanOrCredit: 4, InvestmentOrDeposit: 4, CurrencyConversionService: 4,
    },
  },
  {
    slug: 'saas-productivity',
    name: 'SaaS & Productivity',
    keywords: {
      productivity: 3, 'project management': 3, 'task management': 3, crm: 3, 'help desk': 3, collaboration: 2,
      workflow: 2, workspace: 2, calendar: 2, scheduling: 2, spreadsheet: 2, saas: 2, 'free trial': 2,
      'remote work': 2, 'customer support': 2, 'no-code': 2, automation: 1, software: 1, documents: 1,
    },
    jsonLdTypes: { SoftwareApplication: 3, WebApplication: 3 },
  },
  {
    slug: 'media-publishing',
    name: 'Media & Publishing',
    keywords: {
      news: 3, 'breaking news': 3, 'latest news': 3, journalism: 3, magazine: 3, editorial: 2, podcast: 2,
      publisher: 2, politics: 2, headlines: 2, newsletter: 1, articles: 1, opinion: 1, blog: 1, stories: 1,
    },
    jsonLdTypes: {
      NewsMediaOrganization: 6, NewsArticle: 4, ReportageNewsArticle: 4, Periodical: 4, PublicationIssue: 3,
      PodcastSeries: 3, Blog: 2, Article: 1, BlogPosting: 1,
    },
  },
  {
    slug: 'travel-hospitality',
    name: 'Travel & Hospitality',
    keywords: {
      travel: 3, hotel: 3, flight: 3, vacation: 3, resort: 3, airline: 3, cruise: 3, 'car rental': 3,
      accommodation: 3, destination: 2, trip: 2, tour: 2, holiday: 2, restaurant: 2, dining: 2, reservation: 2,
      booking: 1,
    },
    jsonLdTypes: {
      Hotel: 6, LodgingBusiness: 5, Resort: 5, VacationRental: 5, BedAndBreakfast: 5, TravelAgency: 5, Airline: 5,
      Flight: 4, TouristTrip: 4, LodgingReservation: 4, FlightReservation: 4, Restaurant: 4, TouristAttraction: 3,
      FoodEstablishment: 3,
    },
  },
  {
    slug: 'education',
    name: 'Education',
    keywords: {
      education: 3, course: 3, university: 3, tutoring: 3, 'online courses': 3, curriculum: 3, classroom: 3,
      'e-learning': 3, edtech: 3, learning: 2, student: 2, teacher: 2, school: 2, degree: 2, lesson: 2, academy: 2,
      learn: 1, certification: 1,
    },
    jsonLdTypes: {
      EducationalOrganization: 6, CollegeOrUniversity: 6, School: 5, Course: 5, CourseInstance: 4,
      EducationalOccupationalProgram: 4, LearningResource: 3,
    },
  },
  {
    slug: 'health-wellness',
    name: 'Health & Wellness',
    keywords: {
      healthcare: 3, medical: 3, doctor: 3, patient: 3, clinic: 3, wellness: 3, fitness: 3, 'mental health': 3,
      pharmacy: 3, telehealth: 3, hospital: 3, dental: 3, health: 2, therapy: 2, nutrition: 2, workout: 2,
      meditation: 2, symptom: 2,
    },
    jsonLdTypes: {
      MedicalOrganization: 6, Hospital: 6, Physician: 6, MedicalClinic: 6, Pharmacy: 6, Dentist: 6, HealthClub: 5,
      MedicalWebPage: 4, MedicalCondition: 3, Drug: 3, DietarySupplement: 3, ExercisePlan: 3,
    },
  },
  {
    slug: 'marketing-analytics',
    name: 'Marketing & Analytics',
    keywords: {
      marketing: 3, analytics: 3, seo: 3, advertising: 3, 'email marketing': 3, 'a/b testing': 3,
      'lead generation': 3, ads: 2, campaign: 2, conversion: 2, audience: 2, 'social media': 2, attribution: 2,
      leads: 2, 'customer data': 2, insights: 1, dashboard: 1, growth: 1, engagement: 1, metrics: 1,
    },
    jsonLdTypes: {},
  },
  {
    slug: 'security-identity',
    name: 'Security & Identity',
    keywords: {
      security: 3, cybersecurity: 3, authentication: 3, sso: 3, 'single sign-on': 3, mfa: 3, 'password manager': 3,
      'zero trust': 3, vulnerability: 3, vulnerabilities: 3, firewall: 3, malware: 3, ransomware: 3,
      'endpoint protection': 3, 'access management': 3, vpn: 3, identity: 2, password: 2, threat: 2, encryption: 2,
      fraud: 2, compliance: 1, privacy: 1,
    },
    jsonLdTypes: {},
  },
  {
    slug: 'cloud-infrastructure',
    name: 'Cloud & Infrastructure',
    keywords: {
      hosting: 3, 'web hosting': 3, serverless: 3, kubernetes: 3, cdn: 3, infrastructure: 3, 'data center': 3,
      'virtual machine': 3, 'load balancing': 3, 'object storage': 3, 'edge network': 3, cloud: 2, server: 2,
      container: 2, database: 2, storage: 2, compute: 2, uptime: 2, dns: 2, observability: 2, monitoring: 2,
      scalable: 1, deploy: 1,
    },
    jsonLdTypes: {},
  },
  {
    slug: 'jobs-hr',
    name: 'Jobs & HR',
    keywords: {
      jobs: 3, recruiting: 3, recruitment: 3, 'job board': 3, 'job search': 3, resume: 3, 'human resources': 3,
      payroll: 3, 'applicant tracking': 3, 'remote jobs': 3, 'job openings': 3, hiring: 2, candidate: 2, talent: 2,
      hr: 2, employee: 2, employer: 2, workforce: 2, careers: 1, onboarding: 1, benefits: 1,
    },
    jsonLdTypes: { JobPosting: 5, EmploymentAgency: 6, Occupation: 3 },
  },
  {
    slug: 'real-estate',
    name: 'Real Estate',
    keywords: {
      'real estate': 3, 'homes for sale': 3, apartment: 3, mortgage: 3, realtor: 3, 'buy a home': 3,
      'sell your home': 3, condo: 3, landlord: 3, tenant: 3, bedroom: 3, property: 2, properties: 2, rent: 2,
      rental: 2, listing: 2, house: 2, 'square feet': 2,
    },
    jsonLdTypes: {
      RealEstateAgent: 6, RealEstateListing: 6, Residence: 4, Apartment: 4, ApartmentComplex: 4, House: 4,
      SingleFamilyResidence: 4, Accommodation: 2,
    },
  },
  {
    slug: 'gaming-entertainment',
    name: 'Gaming & Entertainment',
    keywords: {
      gaming: 3, esports: 3, movie: 3, 'tv shows': 3, entertainment: 3, concert: 3, multiplayer: 3, anime: 3,
      game: 2, player: 2, streaming: 2, music: 2, console: 2, episode: 2, playlist: 2, tickets: 1, series: 1,
    },
    jsonLdTypes: {
      VideoGame: 6, VideoGameSeries: 5, Game: 4, Movie: 5, TVSeries: 5, MovieTheater: 5, MusicGroup: 4, MusicEvent: 4,
      TheaterEvent: 4, Episode: 3, MusicAlbum: 3, MusicRecording: 3,
    },
  },
] as const satisfies readonly CategoryDefinition[]

export type CategorySlug = (typeof CATEGORIES)[number]['slug']
export const CATEGORY_SLUGS = CATEGORIES.map((category) => category.slug) as [CategorySlug, ...CategorySlug[]]

export function isCategorySlug(value: string): value is CategorySlug {
  return (CATEGORY_SLUGS as readonly string[]).includes(value)
}
