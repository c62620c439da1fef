import type { Random } from './random';

const PLACES = [
  'Ashford',
  'Bramley',
  'Calder',
  'Dunmore',
  'Eastfield',
  'Fairhaven',
  'Glenwood',
  'Harrow',
  'Ironbridge',
  'Kingsport',
  'Lakeside',
  'Marlow',
  'Northam',
  'Oakridge',
  'Portland',
  'Queensbury',
  'Riverton',
  'Stanton',
  'Thornbury',
  'Upton',
  'Valemont',
  'Westbrook',
  'Yarmouth',
  'Zelford',
  'Alderton',
  'Beckham',
  'Corbridge',
  'Denholm',
  'Elmstead',
  'Foxley',
  'Greystone',
  'Holloway',
  'Innsworth',
  'Juniper',
  'Kestrel',
  'Lynford',
];
const SUFFIXES = [
  'United',
  'City',
  'Rovers',
  'Athletic',
  'Town',
  'Wanderers',
  'Albion',
  'FC',
  'Rangers',
  'County',
];
const CRICKET_SIDES = [
  'Strikers',
  'Chargers',
  'Titans',
  'Warriors',
  'Knights',
  'Falcons',
  'Royals',
  'Giants',
  'Hurricanes',
  'Stars',
];
const NATIONS = ['Avaria', 'Borland', 'Corvina', 'Delmora', 'Estoria', 'Fenwick', 'Galdor', 'Hestia'];
const FIRST = [
  'A.',
  'B.',
  'C.',
  'D.',
  'E.',
  'F.',
  'G.',
  'H.',
  'J.',
  'K.',
  'L.',
  'M.',
  'N.',
  'P.',
  'R.',
  'S.',
  'T.',
];
const SURNAMES = [
  'Smith',
  'Jones',
  'Taylor',
  'Brown',
  'Wilson',
  'Evans',
  'Walker',
  'Wright',
  'Robinson',
  'Thompson',
  'White',
  'Hughes',
  'Edwards',
  'Green',
  'Hall',
  'Wood',
  'Harris',
  'Lewis',
  'Martin',
  'Jackson',
  'Clarke',
  'Clark',
  'Turner',
  'Hill',
  'Scott',
  'Cooper',
  'Morris',
  'Ward',
  'Moore',
  'King',
  'Watson',
  'Baker',
  'Harrison',
  'Morgan',
  'Patel',
  'Young',
  'Allen',
  'Mitchell',
  'James',
  'Anderson',
  'Phillips',
  'Lee',
  'Bell',
  'Parker',
  'Davis',
  'Carey',
  'Saka',
  'Silva',
  'Costa',
  'Kane',
  'Rossi',
  'Müller',
  'Novak',
  'Haddad',
  'Okafor',
  'Tanaka',
];

export const LEAGUE_NAMES: Record<'soccer' | 'cricket' | 'tennis' | 'basketball', readonly string[]> = {
  soccer: ['Premier League', 'Championship', 'Cup', 'Liga Norte', 'Serie Sud', 'Eredivisie Oost'],
  cricket: ['T20 Blast', 'One-Day Cup', 'Test Series'],
  tennis: ['ATP Challenger', 'WTA Open', 'ITF Masters'],
  basketball: ['National League', 'Continental Cup'],
};

/** Distinct team names for one league, drawn from the league's own stream. */
export function teamNames(random: Random, sport: string, count: number): string[] {
  const names = new Set<string>();
  while (names.size < count) {
    const place = random.pick(PLACES);
    if (sport === 'cricket') names.add(`${place} ${random.pick(CRICKET_SIDES)}`);
    else if (sport === 'tennis') names.add(`${random.pick(FIRST)} ${random.pick(SURNAMES)}`);
    else names.add(`${place} ${random.pick(SUFFIXES)}`);
    if (names.size < count && sport === 'cricket' && random.chance(0.2)) names.add(random.pick(NATIONS));
  }
  return [...names].slice(0, count);
}

export function playerNames(random: Random, count: number): string[] {
  const names = new Set<string>();
  while (names.size < Math.min(count, SURNAMES.length)) names.add(random.pick(SURNAMES));
  return [...names];
}
