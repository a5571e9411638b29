/**
 * The demo product catalog: a few thousand products of a retailer (grocery, beauty, home,
 * electronics), the same on every machine. Demo data only.
 *
 * Deterministic: a seeded PRNG (mulberry32), never Math.random. Product i depends only on i, so
 * demoCatalog(100) is the first 100 products of demoCatalog(3000).
 */
import type { Party } from "~/domain/availability";
import type { ProductInput } from "~/domain/catalog";
import type { Storage } from "~/storage/port";

export type DemoProduct = ProductInput & { id: string };

export const DEMO_CATALOG_SIZE = 3000;
const SEED = 0x5eed_ad5;

/** mulberry32: a small, fast, seeded PRNG giving floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface ProductLine {
  name: string;
  category: string;
  variants: string[];
  sizes: string[];
  /** Price range in cents of the smallest size; larger sizes cost more. */
  price: [number, number];
}

interface Department {
  name: string;
  brands: string[];
  /** Weights of 1P, 3P and 1P_3P for brands other than Acme. */
  parties: [number, number, number];
  lines: ProductLine[];
}

const DEPARTMENTS: Department[] = [
  {
    name: "Grocery",
    brands: ["Acme", "Nordic Harvest", "Bella Cucina", "Golden Grain", "Maison Dufour", "Green Valley", "Sunny Farms", "Kaffeehaus"],
    parties: [78, 14, 8],
    lines: [
      { name: "Ground Coffee", category: "Grocery > Coffee & tea > Coffee", variants: ["Classic", "Intense", "Decaf", "Organic", "Espresso"], sizes: ["250 g", "500 g", "1 kg"], price: [349, 699] },
      { name: "Coffee Beans", category: "Grocery > Coffee & tea > Coffee", variants: ["Arabica", "Dark Roast", "Colombia", "Ethiopia"], sizes: ["500 g", "1 kg"], price: [799, 1299] },
      { name: "Green Tea", category: "Grocery > Coffee & tea > Tea", variants: ["Jasmine", "Mint", "Sencha", "Lemon"], sizes: ["20 bags", "40 bags"], price: [229, 449] },
      { name: "Breakfast Cereal", category: "Grocery > Breakfast", variants: ["Honey", "Chocolate", "Multigrain", "Fruit & Nut", "Original"], sizes: ["375 g", "500 g", "750 g"], price: [249, 429] },
      { name: "Spaghetti", category: "Grocery > Pasta & rice", variants: ["Durum Wheat", "Wholewheat", "Organic", "Gluten Free"], sizes: ["500 g", "1 kg"], price: [99, 249] },
      { name: "Basmati Rice", category: "Grocery > Pasta & rice", variants: ["Classic", "Brown", "Quick Cook"], sizes: ["500 g", "1 kg", "2 kg"], price: [179, 329] },
      { name: "Extra Virgin Olive Oil", category: "Grocery > Oils & vinegar", variants: ["Classic", "Organic", "Cold Pressed", "Fruity"], sizes: ["500 ml", "750 ml", "1 l"], price: [549, 999] },
      { name: "Dark Chocolate", category: "Grocery > Snacks & sweets", variants: ["70%", "85%", "Sea Salt", "Orange", "Almond"], sizes: ["100 g", "200 g"], price: [169, 349] },
      { name: "Sparkling Water", category: "Grocery > Drinks", variants: ["Natural", "Lemon", "Lime"], sizes: ["6 x 1 l", "12 x 500 ml"], price: [299, 549] },
      { name: "Tomato Sauce", category: "Grocery > Sauces & condiments", variants: ["Basil", "Arrabbiata", "Garlic", "Olive"], sizes: ["400 g", "680 g"], price: [149, 299] },
    ],
  },
  {
    name: "Beauty",
    brands: ["Acme", "Belle Peau", "Lumière", "Aqua Pure", "Velvet Rose", "Botanica", "Nordic Skin", "Studio Pro"],
    parties: [70, 20, 10],
    lines: [
      { name: "Shampoo", category: "Beauty > Hair care", variants: ["Repair", "Volume", "Anti-Dandruff", "Colour Protect", "Gentle"], sizes: ["250 ml", "400 ml", "1 l"], price: [299, 699] },
      { name: "Conditioner", category: "Beauty > Hair care", variants: ["Repair", "Volume", "Smooth", "Curl"], sizes: ["200 ml", "400 ml"], price: [299, 649] },
      { name: "Hair Mask", category: "Beauty > Hair care", variants: ["Argan", "Keratin", "Coconut"], sizes: ["200 ml", "300 ml"], price: [599, 1299] },
      { name: "Day Cream", category: "Beauty > Skin care", variants: ["Hydrating", "Anti-Ageing", "SPF 30", "Sensitive Skin", "Mattifying"], sizes: ["50 ml"], price: [899, 2999] },
      { name: "Face Serum", category: "Beauty > Skin care", variants: ["Vitamin C", "Hyaluronic", "Retinol", "Niacinamide"], sizes: ["30 ml"], price: [1299, 3999] },
      { name: "Shower Gel", category: "Beauty > Bath & body", variants: ["Fresh", "Almond", "Cocoa", "Sport", "Lavender"], sizes: ["250 ml", "500 ml"], price: [199, 449] },
      { name: "Body Lotion", category: "Beauty > Bath & body", variants: ["Shea", "Aloe Vera", "Intense Care"], sizes: ["250 ml", "400 ml"], price: [399, 899] },
      { name: "Mascara", category: "Beauty > Make-up", variants: ["Black", "Brown", "Waterproof", "Volume"], sizes: ["8 ml"], price: [799, 1999] },
      { name: "Lipstick", category: "Beauty > Make-up", variants: ["Nude", "Ruby Red", "Coral", "Plum", "Rose"], sizes: ["3.5 g"], price: [699, 2499] },
      { name: "Toothpaste", category: "Beauty > Oral care", variants: ["Whitening", "Sensitive", "Fresh Mint", "Herbal"], sizes: ["75 ml", "2 x 75 ml"], price: [149, 399] },
    ],
  },
  {
    name: "Home",
    brands: ["Acme", "Maison Home", "CleanCo", "Nordic Living", "Casa Bella", "EcoHome", "Brightline", "Homecraft"],
    parties: [66, 24, 10],
    lines: [
      { name: "Laundry Detergent", category: "Home > Laundry", variants: ["Original", "Sensitive", "Colour", "Eco"], sizes: ["1.5 l", "3 l"], price: [599, 1199] },
      { name: "Dishwasher Tablets", category: "Home > Cleaning > Dishwashing", variants: ["All in One", "Lemon", "Eco"], sizes: ["30 pcs", "60 pcs", "90 pcs"], price: [499, 999] },
      { name: "Multi-Surface Cleaner", category: "Home > Cleaning", variants: ["Lemon", "Pine", "Unscented", "Antibacterial"], sizes: ["750 ml", "1 l"], price: [199, 399] },
      { name: "Non-Stick Frying Pan", category: "Home > Kitchen > Cookware", variants: ["Classic", "Ceramic", "Induction"], sizes: ["20 cm", "24 cm", "28 cm"], price: [1499, 3999] },
      { name: "Bath Towel", category: "Home > Bed & bath", variants: ["White", "Grey", "Navy", "Sage"], sizes: ["50 x 100 cm", "70 x 140 cm"], price: [699, 1899] },
      { name: "Scented Candle", category: "Home > Decoration", variants: ["Vanilla", "Fig", "Cedarwood", "Linen"], sizes: ["200 g", "400 g"], price: [899, 2499] },
      { name: "Storage Box", category: "Home > Storage", variants: ["Clear", "White", "Grey"], sizes: ["10 l", "25 l", "45 l"], price: [499, 1499] },
      { name: "Kitchen Towels", category: "Home > Paper products", variants: ["Classic", "Extra Absorbent", "Recycled"], sizes: ["4 rolls", "8 rolls"], price: [249, 599] },
      { name: "Glass Food Containers", category: "Home > Kitchen > Food storage", variants: ["Round", "Rectangular", "Set"], sizes: ["3 pcs", "5 pcs"], price: [1299, 2999] },
    ],
  },
  {
    name: "Electronics",
    brands: ["Acme", "Voltix", "Soundwave", "Pixelon", "Nordtech", "Lumina", "Kinetic", "Aurora"],
    parties: [58, 32, 10],
    lines: [
      { name: "Wireless Earbuds", category: "Electronics > Audio", variants: ["Black", "White", "Noise Cancelling", "Sport"], sizes: ["Gen 2", "Pro"], price: [2999, 9999] },
      { name: "Bluetooth Speaker", category: "Electronics > Audio", variants: ["Mini", "Portable", "Waterproof", "Party"], sizes: ["10 W", "20 W", "40 W"], price: [2499, 6999] },
      { name: "USB-C Charger", category: "Electronics > Accessories > Chargers", variants: ["Compact", "Dual Port", "GaN"], sizes: ["20 W", "45 W", "65 W"], price: [1299, 2499] },
      { name: "Power Bank", category: "Electronics > Accessories > Chargers", variants: ["Slim", "Fast Charge", "MagSafe"], sizes: ["10000 mAh", "20000 mAh"], price: [1999, 3999] },
      { name: "Smart LED Bulb", category: "Electronics > Smart home", variants: ["Warm White", "Colour", "Filament"], sizes: ["E27", "GU10", "E14"], price: [999, 1999] },
      { name: "4K Smart TV", category: "Electronics > TV & video", variants: ["LED", "QLED", "OLED"], sizes: ['43"', '50"', '55"', '65"'], price: [29999, 79999] },
      { name: "Laptop Sleeve", category: "Electronics > Computing > Accessories", variants: ["Black", "Grey", "Navy"], sizes: ['13"', '15"'], price: [1499, 2999] },
      { name: "Wireless Mouse", category: "Electronics > Computing > Accessories", variants: ["Black", "Silent", "Ergonomic", "Travel"], sizes: ["Standard"], price: [1299, 4999] },
      { name: "Smartwatch", category: "Electronics > Wearables", variants: ["Black", "Silver", "Rose Gold", "Sport"], sizes: ["40 mm", "44 mm"], price: [9999, 29999] },
      { name: "HDMI Cable", category: "Electronics > Accessories > Cables", variants: ["High Speed", "Braided", "8K"], sizes: ["1 m", "2 m", "3 m"], price: [799, 2499] },
    ],
  },
];

/** Availability of a product, weighted: mostly in stock. */
const AVAILABILITY_WEIGHTS: [string, number][] = [
  ["in stock", 78],
  ["in store", 6],
  ["preorder", 3],
  ["out of stock", 8],
  ["not found", 2],
  ["not eligible", 2],
  ["missing category", 1],
];

const REPEAT_SUFFIXES = ["", "Value Pack", "Twin Pack", "Family Pack", "Limited Edition"];

interface Combo {
  department: Department;
  line: ProductLine;
  brand: string;
  variant: string;
  sizeIndex: number;
}

function pick<T>(random: () => number, weighted: readonly [T, number][]): T {
  const total = weighted.reduce((sum, [, w]) => sum + w, 0);
  let roll = random() * total;
  for (const [value, weight] of weighted) {
    roll -= weight;
    if (roll < 0) return value;
  }
  return weighted[weighted.length - 1]![0];
}

/** Cents ending like shelf prices (.99, .49, .29, .79). */
function shelfPrice(cents: number, random: () => number): number {
  const endings = [99, 49, 29, 79];
  const euros = Math.max(0, Math.floor(cents / 100));
  return euros * 100 + endings[Math.floor(random() * endings.length)]!;
}

let combos: Combo[] | null = null;

/** Every brand x line x variant x size, in one fixed shuffled order. */
function allCombos(): Combo[] {
  if (combos) return combos;
  const list: Combo[] = [];
  for (const department of DEPARTMENTS) {
    for (const line of department.lines) {
      for (const brand of department.brands) {
        for (const variant of line.variants) {
          line.sizes.forEach((_, sizeIndex) => list.push({ department, line, brand, variant, sizeIndex }));
        }
      }
    }
  }
  const random = mulberry32(SEED);
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [list[i], list[j]] = [list[j]!, list[i]!];
  }
  combos = list;
  return list;
}

export function demoProductId(index: number): string {
  return `SKU-${String(index + 1).padStart(6, "0")}`;
}

/** Product number `index` (0-based) of the demo catalog. */
export function demoProduct(index: number): DemoProduct {
  const list = allCombos();
  const { department, line, brand, variant, sizeIndex } = list[index % list.length]!;
  const round = Math.floor(index / list.length);
  const random = mulberry32((SEED ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0);
  const id = demoProductId(index);
  const suffix = REPEAT_SUFFIXES[round % REPEAT_SUFFIXES.length];
  const size = line.sizes[sizeIndex]!;
  const title = [brand, line.name, variant, size, suffix, round >= REPEAT_SUFFIXES.length ? `#${round}` : ""].filter(Boolean).join(" ");

  const [low, high] = line.price;
  const base = low + random() * (high - low);
  const price = shelfPrice(base * (1 + sizeIndex * 0.6) * (suffix ? 1.8 : 1), random);
  const stroke_price = random() < 0.15 ? shelfPrice(price * (1.1 + random() * 0.3) + 100, random) : null;

  const availability = pick(random, AVAILABILITY_WEIGHTS);
  const party: Party =
    brand === "Acme"
      ? random() < 0.9
        ? "1P"
        : "1P_3P"
      : pick<Party>(random, [
          ["1P", department.parties[0]],
          ["3P", department.parties[1]],
          ["1P_3P", department.parties[2]],
        ]);
  const categories = availability === "missing category" ? [] : [line.category];

  return {
    id,
    title,
    image_link: `/images/products/${id}.svg`,
    link: `https://shop.example.com/p/${id}`,
    availability,
    party,
    brand,
    price,
    stroke_price,
    categories,
  };
}

/** The demo catalog: `count` products, SKU-000001 onwards, the same every time. */
export function demoCatalog(count = DEMO_CATALOG_SIZE): DemoProduct[] {
  return Array.from({ length: Math.max(0, Math.floor(count)) }, (_, i) => demoProduct(i));
}

/** Seeds the demo catalog when the catalog is empty; returns how many products it wrote. */
export async function seedDemoCatalog(storage: Storage, count = DEMO_CATALOG_SIZE): Promise<number> {
  if ((await storage.catalog.count()) > 0) return 0;
  // upsertMany writes 400 products per transaction.
  return storage.catalog.upsertMany(demoCatalog(count));
}
