// The live board: only the public APIs, through the reference client
// (packages/client), with the key the user enters. Live matches come from
// fixtures-live (REST list, then its stream), prices from the odds stream,
// paired by team names. Sports without live scores show their prices alone.
// Bundled for the browser by scripts/build-board.js into board/dist/board.js.
import {
  FixturesClient,
  formatClock,
  LiveScoresStream,
  OddsClient,
  OddsStream,
  projectClockSeconds,
} from '@sports-data/client';

const params = new URLSearchParams(location.search);
const fixturesBase = `${location.protocol}//${location.host}${params.get('base') || '/v1'}`;
const oddsOrigin = params.get('odds') || `${location.protocol}//${location.hostname}:3001`;
const bookPrefix = params.get('book') || '/v1/book';
const LIST_REFRESH_MS = Number(params.get('refresh_ms')) || 15000;
const HEARTBEAT_MS = Number(params.get('heartbeat_ms')) || 2000;
/** How much price history a sparkline shows. */
const SPARK_WINDOW_MS = 5 * 60 * 1000;
/** Sports whose matches have live scores (fixtures-live, section 1.5). */
const LIVE_SCORE_SPORTS = new Set(['soccer', 'cricket']);
const SVG = 'http://www.w3.org/2000/svg';

const sportsRoot = document.getElementById('sports');
const form = document.getElementById('key-form');
const keyInput = document.getElementById('key');
const statusLine = document.getElementById('status');

/** match_id → { card, match, sport, scores } */
const fixtures = new Map();
/** book match id → the match object of /matches */
const bookMatches = new Map();
/** `market_key|bet_name` → [{ t, decimal }] within SPARK_WINDOW_MS */
const priceHistory = new Map();
let clients;
let liveStream;
let oddsStream;
let refreshTimer;

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function svg(tag, attributes) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  return node;
}

function setStatus(text) {
  statusLine.textContent = text;
}

function normalise(name) {
  return String(name || '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

function pairKey(home, away) {
  return `${normalise(home)}|${normalise(away)}`;
}

// ---- connection and feed health, one badge per service ----

function showConnection(service, stream) {
  const badge = document.getElementById(`conn-${service}`);
  const state = stream.state;
  const health =
    stream.isFeedHealthy === undefined
      ? 'feed ?'
      : stream.isFeedHealthy
        ? 'feed healthy'
        : 'feed NOT healthy';
  badge.dataset.state = state;
  badge.dataset.feed = String(stream.isFeedHealthy);
  badge.querySelector('.state').textContent = state;
  badge.querySelector('.feed').textContent = health;
}

// ---- cards ----

function sportSection(id, name) {
  let section = document.getElementById(`sport-${id}`);
  if (!section) {
    section = element('section', 'sport');
    section.id = `sport-${id}`;
    section.append(element('h2', '', name), element('div', 'matches'));
    sportsRoot.append(section);
  }
  return section.querySelector('.matches');
}

function newCard({ id, home, away, sectionId, sectionName, scores }) {
  const card = element('article', scores ? 'match' : 'match prices-only');
  card.dataset.matchId = String(id);
  const teams = element('div', 'teams');
  teams.append(element('span', 'home', home), element('span', 'away', away));
  card.append(teams);
  if (scores) {
    card.append(
      element('div', 'score', '–'),
      element('div', 'meta', 'waiting for the first frame'),
      element('ul', 'events'),
      element('div', 'detail'),
      element('div', 'chart'),
    );
  }
  card.append(element('div', 'prices'));
  sportSection(sectionId, sectionName).append(card);
  return card;
}

function fixtureCard(match, sport) {
  const held = fixtures.get(match.id);
  if (held) return held;
  const scores = LIVE_SCORE_SPORTS.has(normalise(sport.name));
  const card = newCard({
    id: match.id,
    home: match.home_team,
    away: match.away_team,
    sectionId: `f${sport.id}`,
    sectionName: sport.name,
    scores,
  });
  const entry = { card, match, sport, scores };
  fixtures.set(match.id, entry);
  if (scores) liveStream.subscribe(match.id);
  return entry;
}

// ---- live scores ----

function clockText(clock) {
  return `${formatClock(projectClockSeconds(clock, Date.now()))}${clock.added ? ` +${clock.added}` : ''}`;
}

/** Pressure per minute in [-1, 1] as bars above (home) and below (away) a middle line. */
function pressureChart(series) {
  const width = 180;
  const height = 40;
  const chart = svg('svg', { class: 'pressure', viewBox: `0 0 ${width} ${height}`, width, height });
  chart.append(svg('line', { x1: 0, x2: width, y1: height / 2, y2: height / 2, class: 'axis' }));
  const step = width / Math.max(series.length, 1);
  series.forEach((value, index) => {
    const clamped = Math.max(-1, Math.min(1, Number(value) || 0));
    const barHeight = (Math.abs(clamped) * height) / 2;
    chart.append(
      svg('rect', {
        x: index * step,
        y: clamped >= 0 ? height / 2 - barHeight : height / 2,
        width: Math.max(step - 1, 1),
        height: Math.max(barHeight, 0.5),
        class: clamped >= 0 ? 'home' : 'away',
      }),
    );
  });
  return chart;
}

/** Runs per over of the innings in play, as bars. */
function oversChart(overs) {
  const width = 180;
  const height = 40;
  const top = Math.max(6, ...overs.map((row) => Number(row.runs) || 0));
  const chart = svg('svg', { class: 'overs', viewBox: `0 0 ${width} ${height}`, width, height });
  const step = width / Math.max(overs.length, 1);
  overs.forEach((row, index) => {
    const barHeight = ((Number(row.runs) || 0) / top) * (height - 2);
    const bar = svg('rect', {
      x: index * step,
      y: height - barHeight,
      width: Math.max(step - 1, 1),
      height: Math.max(barHeight, 0.5),
    });
    const title = svg('title', {});
    title.textContent = `over ${row.over}: ${row.runs}`;
    bar.append(title);
    chart.append(bar);
  });
  return chart;
}

function renderSoccer(card, snapshot) {
  const shootout = snapshot.score.shootout
    ? ` (pens ${snapshot.score.shootout.home}-${snapshot.score.shootout.away})`
    : '';
  card.querySelector('.score').textContent = `${snapshot.score.home} - ${snapshot.score.away}${shootout}`;
  const phase = snapshot.phase && snapshot.phase.label ? ` · ${snapshot.phase.label}` : '';
  card.querySelector('.meta').textContent =
    `${snapshot.status} · ${snapshot.clock.period} ${clockText(snapshot.clock)}${phase}`;
  card.querySelector('.events').replaceChildren(
    ...(snapshot.events || [])
      .slice(-3)
      .reverse()
      .map((event) => element('li', '', `${event.minute}' ${event.label}`)),
  );
  const chart = card.querySelector('.chart');
  if (Array.isArray(snapshot.pressure) && snapshot.pressure.length > 0) {
    chart.replaceChildren(element('span', 'label', 'pressure'), pressureChart(snapshot.pressure));
  } else {
    chart.replaceChildren();
  }
}

function renderCricket(card, snapshot) {
  const batting = snapshot.batting === 'home' ? snapshot.home : snapshot.away;
  card.querySelector('.score').textContent = `${batting} ${snapshot.score.raw}`;
  card.querySelector('.meta').textContent =
    `${snapshot.status} · ${snapshot.match_type} · innings ${snapshot.innings} · over ${snapshot.over.over}.${snapshot.over.ball}`;
  const batsmen = (snapshot.batsmen || [])
    .map((batsman) => `${batsman.name}${batsman.on_strike ? '*' : ''} ${batsman.runs} (${batsman.balls})`)
    .join(', ');
  const bowler = snapshot.bowler
    ? `${snapshot.bowler.name} ${snapshot.bowler.wickets}-${snapshot.bowler.runs} (${snapshot.bowler.overs})`
    : '';
  card.querySelector('.events').replaceChildren(element('li', '', batsmen), element('li', '', bowler));
  card.querySelector('.detail').textContent = snapshot.last_event ? snapshot.last_event.label : '';
  const innings =
    (snapshot.scorecard || []).find((row) => row && row.live) || (snapshot.scorecard || []).at(-1);
  const overs = innings && Array.isArray(innings.overs) ? innings.overs : [];
  const chart = card.querySelector('.chart');
  if (overs.length > 0) chart.replaceChildren(element('span', 'label', 'runs per over'), oversChart(overs));
  else chart.replaceChildren();
}

function renderScores(entry) {
  const state = liveStream.match(entry.match.id);
  if (!state) return;
  const snapshot = state.snapshot;
  if (snapshot.sport === 'soccer') renderSoccer(entry.card, snapshot);
  else if (snapshot.sport === 'cricket') renderCricket(entry.card, snapshot);
  entry.card.dataset.seq = String(state.seq);
}

// ---- prices ----

function remember(selection, now) {
  const id = `${selection.market_key}|${selection.bet_name}`;
  const history = priceHistory.get(id) || [];
  if (history.length === 0 || history.at(-1).decimal !== selection.decimal)
    history.push({ t: now, decimal: selection.decimal });
  while (history.length > 1 && history[0].t < now - SPARK_WINDOW_MS) history.shift();
  priceHistory.set(id, history);
}

function sparkline(id) {
  const history = priceHistory.get(id) || [];
  const width = 60;
  const height = 16;
  const chart = svg('svg', { class: 'spark', viewBox: `0 0 ${width} ${height}`, width, height });
  if (history.length === 0) return chart;
  const now = Date.now();
  const values = history.map((point) => point.decimal);
  const low = Math.min(...values);
  const high = Math.max(...values);
  const span = high - low || 1;
  const points = history.map((point) => {
    const x = width - ((now - point.t) / SPARK_WINDOW_MS) * width;
    const y = height - 1 - ((point.decimal - low) / span) * (height - 2);
    return `${Math.max(0, x).toFixed(1)},${y.toFixed(1)}`;
  });
  // Held until now: the line runs to the right edge at the current price.
  points.push(`${width},${points.at(-1).split(',')[1]}`);
  chart.append(svg('polyline', { points: points.join(' ') }));
  chart.dataset.points = String(history.length);
  return chart;
}

/** The main market of a kind: the one priced closest to even money. */
function mainMarket(markets, label) {
  let best;
  let bestDistance = Infinity;
  for (const selections of markets.values()) {
    const first = selections[0];
    if (!first || first.period !== 0 || !first.market_name.endsWith(label)) continue;
    const distance = Math.abs(first.decimal - 2) + Math.abs((selections[1] || first).decimal - 2);
    if (distance < bestDistance) {
      best = selections;
      bestDistance = distance;
    }
  }
  return best;
}

function renderPrices(card, book) {
  const grid = card.querySelector('.prices');
  if (!book) return;
  const previous = new Map(
    [...grid.querySelectorAll('.price')].map((node) => [node.dataset.id, node.dataset.decimal]),
  );
  const rows = [];
  for (const [title, label] of [
    ['1X2', 'Money Line'],
    ['Handicap', 'Handicap'],
    ['Total', 'Total'],
  ]) {
    const selections = mainMarket(book.markets, label);
    if (!selections) continue;
    rows.push(element('span', 'market', title));
    for (let index = 0; index < 3; index += 1) {
      const selection = selections[index];
      if (!selection) {
        rows.push(element('span'));
        continue;
      }
      const node = element('span', 'price');
      const id = `${selection.market_key}|${selection.bet_name}`;
      node.dataset.id = id;
      node.dataset.decimal = String(selection.decimal);
      node.title = `American ${selection.price}, limit ${selection.limit}`;
      node.append(
        element('span', 'name', selection.bet_name),
        element('span', 'odds', selection.decimal.toFixed(2)),
      );
      if (selection.status === 'locked') {
        node.classList.add('locked');
        node.append(element('span', 'lock', 'locked'));
      }
      node.append(sparkline(id));
      const before = previous.get(id);
      if (before !== undefined && before !== node.dataset.decimal) {
        node.classList.add('flash', Number(node.dataset.decimal) > Number(before) ? 'up' : 'down');
      }
      rows.push(node);
    }
  }
  grid.replaceChildren(...rows);
  // The flash fades by the transition in board.css once the class is gone.
  setTimeout(() => grid.querySelectorAll('.flash').forEach((node) => node.classList.remove('flash')), 1200);
}

function pricesFor(home, away) {
  // The book keeps a prematch matchup (locked once in play) beside its live one: prefer the live one.
  const candidates = [...bookMatches.values()].filter(
    (match) => pairKey(match.home, match.away) === pairKey(home, away),
  );
  const chosen = candidates.find((match) => match.is_live) || candidates[0];
  return chosen ? oddsStream.book(chosen.id) : undefined;
}

function bookCard(match) {
  const id = `b${match.id}`;
  let card = document.querySelector(`article[data-book-id="${match.id}"]`);
  if (!card) {
    card = newCard({
      id,
      home: match.home || match.special || String(match.id),
      away: match.away || '',
      sectionId: `b${match.sport_id}`,
      sectionName: match.sportName || `Sport ${match.sport_id}`,
      scores: false,
    });
    card.dataset.bookId = String(match.id);
  }
  return card;
}

/** Whether a book match is shown on a fixtures card (a sport with live scores). */
function pairedFixture(match) {
  for (const entry of fixtures.values()) {
    if (pairKey(entry.match.home_team, entry.match.away_team) === pairKey(match.home, match.away))
      return entry;
  }
  return undefined;
}

function renderBookMatch(matchId) {
  const match = bookMatches.get(matchId);
  if (!match) return;
  const entry = pairedFixture(match);
  if (entry) {
    renderPrices(entry.card, pricesFor(entry.match.home_team, entry.match.away_team));
  } else if (!LIVE_SCORE_SPORTS.has(normalise(match.sportName)) && match.home && match.away) {
    renderPrices(bookCard(match), oddsStream.book(matchId));
  }
}

// ---- lists ----

async function refreshBookMatches() {
  const [sports, matches] = await Promise.all([clients.odds.sports(), clients.odds.matches()]);
  const names = new Map(sports.map((sport) => [sport.id, sport.name]));
  for (const match of matches) bookMatches.set(match.id, { ...match, sportName: names.get(match.sport_id) });
  for (const match of bookMatches.values()) renderBookMatch(match.id);
}

async function refreshLiveMatches() {
  const sports = await clients.fixtures.sports();
  let count = 0;
  for (const sport of sports) {
    for (const match of await clients.fixtures.liveMatches(sport.id)) {
      count += 1;
      const entry = fixtureCard(match, sport);
      renderPrices(entry.card, pricesFor(match.home_team, match.away_team));
    }
  }
  setStatus(`${count} live matches.`);
}

function tick() {
  for (const entry of fixtures.values()) {
    const state = entry.scores && liveStream.match(entry.match.id);
    if (state && state.snapshot.sport === 'soccer' && state.snapshot.clock.running) renderScores(entry);
  }
}

function openStreams(key) {
  const wsBase = (origin) => origin.replace(/^http/, 'ws');
  liveStream = new LiveScoresStream({
    url: `${wsBase(fixturesBase)}/stream`,
    apiKey: key,
    heartbeatMs: HEARTBEAT_MS,
  });
  oddsStream = new OddsStream({
    url: `${wsBase(oddsOrigin)}${bookPrefix}/data`,
    apiKey: key,
    heartbeatMs: HEARTBEAT_MS,
  });
  for (const [service, stream] of [
    ['live', liveStream],
    ['odds', oddsStream],
  ]) {
    stream.on('connection', () => showConnection(service, stream));
    stream.on('heartbeat', () => showConnection(service, stream));
    stream.on('serverError', (message) => setStatus(`${service}: ${message}`));
  }
  liveStream.on('match', ({ state }) => {
    const entry = fixtures.get(state.matchId);
    if (entry) renderScores(entry);
  });
  oddsStream.on('book', ({ matchId, book, changed }) => {
    const now = Date.now();
    for (const key of changed) for (const selection of book.markets.get(key) || []) remember(selection, now);
    if (!bookMatches.has(matchId)) {
      // A match that appeared after the list was read: its names come with the next list refresh.
      refreshBookMatches().catch(() => undefined);
      return;
    }
    renderBookMatch(matchId);
  });
  liveStream.connect();
  oddsStream.subscribeAll();
  oddsStream.connect();
}

async function start() {
  const key = keyInput.value.trim();
  sessionStorage.setItem('board-key', key);
  clearInterval(refreshTimer);
  liveStream?.close();
  oddsStream?.close();
  clients = {
    fixtures: new FixturesClient({ baseUrl: fixturesBase, apiKey: key }),
    odds: new OddsClient({ baseUrl: `${oddsOrigin}${bookPrefix}`, apiKey: key }),
  };
  openStreams(key);
  try {
    await refreshLiveMatches();
  } catch (error) {
    setStatus(`Cannot read live matches: ${error.message}`);
  }
  refreshBookMatches().catch((error) => setStatus(`Odds unavailable for this key: ${error.message}`));
  refreshTimer = setInterval(() => {
    refreshLiveMatches().catch((error) => setStatus(error.message));
    refreshBookMatches().catch(() => undefined);
  }, LIST_REFRESH_MS);
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  void start();
});
setInterval(tick, 1000);
keyInput.value = sessionStorage.getItem('board-key') || '';
