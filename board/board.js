// The live board: only the public APIs, with the key the user enters. Live
// matches come from fixtures-live (REST list, then its stream), prices of the
// same fixtures from the odds stream, paired by team names.
'use strict';

(function board() {
  const params = new URLSearchParams(location.search);
  const fixturesBase = `${location.protocol}//${location.host}`;
  const basePath = params.get('base') || '/v1';
  const oddsBase = params.get('odds') || `${location.protocol}//${location.hostname}:3001`;
  const bookPrefix = params.get('book') || '/v1/book';
  const LIST_REFRESH_MS = 15000;

  const statusLine = document.getElementById('status');
  const sportsRoot = document.getElementById('sports');
  const form = document.getElementById('key-form');
  const keyInput = document.getElementById('key');

  /** match_id → { card, snapshot, sportName } */
  const fixtures = new Map();
  /** book match id → { home, away, markets: Map(market_key → selections) } */
  const bookMatches = new Map();
  let key = '';
  let liveSocket;
  let oddsSocket;
  let refreshTimer;

  function setStatus(text) {
    statusLine.textContent = text;
  }

  function wsUrl(base, path) {
    return `${base.replace(/^http/, 'ws')}${path}?key=${encodeURIComponent(key)}`;
  }

  async function getJson(url) {
    const response = await fetch(url, { headers: { 'X-API-Key': key } });
    const body = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(body.detail || body.error || `HTTP ${response.status}`);
    return body;
  }

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function normalise(name) {
    return String(name || '')
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '');
  }

  function pairKey(home, away) {
    return `${normalise(home)}|${normalise(away)}`;
  }

  function sportSection(sport) {
    let section = document.getElementById(`sport-${sport.id}`);
    if (!section) {
      section = element('section', 'sport');
      section.id = `sport-${sport.id}`;
      section.append(element('h2', '', sport.name), element('div', 'matches'));
      sportsRoot.append(section);
    }
    return section.querySelector('.matches');
  }

  function matchCard(match, sport) {
    const entry = fixtures.get(match.id);
    if (entry) return entry;
    const card = element('article', 'match');
    card.dataset.matchId = String(match.id);
    const teams = element('div', 'teams');
    teams.append(element('span', 'home', match.home_team), element('span', 'away', match.away_team));
    card.append(
      teams,
      element('div', 'score', '–'),
      element('div', 'meta', 'waiting for the first frame'),
      element('ul', 'events'),
      element('div', 'detail'),
      element('div', 'prices'),
    );
    sportSection(sport).append(card);
    const created = { card, snapshot: undefined, match };
    fixtures.set(match.id, created);
    return created;
  }

  function clockText(clock) {
    if (!clock) return '';
    let seconds = clock.minute * 60 + clock.second;
    if (clock.running && clock.as_of) seconds += Math.max(0, (Date.now() - Date.parse(clock.as_of)) / 1000);
    const minute = Math.floor(seconds / 60);
    const second = Math.floor(seconds % 60);
    return `${minute}:${String(second).padStart(2, '0')}${clock.added ? ` +${clock.added}` : ''}`;
  }

  function renderSoccer(entry, snapshot) {
    const { card } = entry;
    const shootout = snapshot.score.shootout
      ? ` (pens ${snapshot.score.shootout.home}-${snapshot.score.shootout.away})`
      : '';
    card.querySelector('.score').textContent = `${snapshot.score.home} - ${snapshot.score.away}${shootout}`;
    const phase = snapshot.phase && snapshot.phase.label ? ` · ${snapshot.phase.label}` : '';
    card.querySelector('.meta').textContent =
      `${snapshot.status} · ${snapshot.clock.period} ${clockText(snapshot.clock)}${phase}`;
    const events = card.querySelector('.events');
    events.replaceChildren(
      ...(snapshot.events || [])
        .slice(-3)
        .reverse()
        .map((event) => element('li', '', `${event.minute}' ${event.label}`)),
    );
  }

  function renderCricket(entry, snapshot) {
    const { card } = entry;
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
  }

  function render(entry) {
    const snapshot = entry.snapshot;
    if (!snapshot) return;
    if (snapshot.sport === 'soccer') renderSoccer(entry, snapshot);
    else if (snapshot.sport === 'cricket') renderCricket(entry, snapshot);
  }

  /** The main market of a kind: the one priced closest to even money. */
  function mainMarket(markets, label) {
    let best;
    let bestDistance = Infinity;
    for (const selections of markets.values()) {
      const first = selections[0];
      if (!first || first.period !== 0 || !first.market_name.endsWith(label)) continue;
      const distance = Math.abs(selections[0].decimal - 2) + Math.abs((selections[1] || first).decimal - 2);
      if (distance < bestDistance) {
        best = selections;
        bestDistance = distance;
      }
    }
    return best;
  }

  function renderPrices(entry) {
    // The book keeps a prematch matchup (locked once in play) beside its live one: prefer the live one.
    const candidates = [...bookMatches.values()].filter(
      (candidate) =>
        pairKey(candidate.home, candidate.away) === pairKey(entry.match.home_team, entry.match.away_team),
    );
    const book = candidates.find((candidate) => candidate.is_live) || candidates[0];
    const grid = entry.card.querySelector('.prices');
    if (!book) return;
    const previous = new Map(
      [...grid.querySelectorAll('.price')].map((node) => [node.dataset.id, node.textContent]),
    );
    const rows = [];
    for (const [title, label] of [
      ['1X2', 'Money Line'],
      ['Handicap', 'Handicap'],
      ['Total', 'Total'],
    ]) {
      const selections = mainMarket(book.markets, label);
      if (!selections) continue;
      rows.push(element('span', '', title));
      for (let index = 0; index < 3; index += 1) {
        const selection = selections[index];
        if (!selection) {
          rows.push(element('span'));
          continue;
        }
        const node = element('span', 'price', `${selection.bet_name} ${selection.decimal.toFixed(2)}`);
        node.dataset.id = `${selection.market_key}|${selection.bet_name}`;
        node.title = `American ${selection.price}, limit ${selection.limit}`;
        if (selection.status === 'locked') node.classList.add('locked');
        const before = previous.get(node.dataset.id);
        if (before !== undefined && before !== node.textContent) node.classList.add('flash');
        rows.push(node);
      }
    }
    grid.replaceChildren(...rows);
    requestAnimationFrame(() =>
      grid.querySelectorAll('.flash').forEach((node) => node.classList.remove('flash')),
    );
  }

  function applySelections(match, selections, removed) {
    for (const marketKey of removed || []) match.markets.delete(marketKey);
    const grouped = new Map();
    for (const selection of selections) {
      const list = grouped.get(selection.market_key) || [];
      list.push(selection);
      grouped.set(selection.market_key, list);
    }
    for (const [marketKey, list] of grouped) {
      const held = match.markets.get(marketKey);
      if (held && held[0].version >= list[0].version) continue;
      match.markets.set(marketKey, list);
    }
  }

  function onOddsFrame(frame) {
    if (frame.type === 'heartbeat') {
      setStatus(`Connected. Odds feed ${frame.feed_healthy ? 'healthy' : 'NOT healthy'}.`);
      return;
    }
    if (frame.type === 'error') return setStatus(`Odds: ${frame.error}`);
    if (frame.type !== 'snapshot' && frame.type !== 'update') return;
    let match = bookMatches.get(frame.match_id);
    if (!match) {
      // A match that appeared after the list was read: its names arrive with the next list refresh.
      match = { id: frame.match_id, markets: new Map() };
      bookMatches.set(frame.match_id, match);
    }
    if (frame.type === 'snapshot') match.markets.clear();
    applySelections(match, frame.selections || [], frame.removed_market_keys);
    for (const entry of fixtures.values()) {
      if (pairKey(entry.match.home_team, entry.match.away_team) === pairKey(match.home, match.away)) {
        renderPrices(entry);
      }
    }
  }

  async function refreshBookMatches() {
    const matches = await getJson(`${oddsBase}${bookPrefix}/matches`);
    for (const match of matches) {
      const held = bookMatches.get(match.id);
      bookMatches.set(match.id, { ...match, markets: held ? held.markets : new Map() });
    }
    for (const entry of fixtures.values()) renderPrices(entry);
  }

  async function connectOdds() {
    try {
      await refreshBookMatches();
    } catch (error) {
      setStatus(`Odds unavailable for this key: ${error.message}`);
      return;
    }
    if (oddsSocket) return;
    oddsSocket = new WebSocket(wsUrl(oddsBase, `${bookPrefix}/data`));
    oddsSocket.onopen = () => oddsSocket.send(JSON.stringify({ action: 'subscribe_all' }));
    oddsSocket.onmessage = (message) => onOddsFrame(JSON.parse(message.data));
    oddsSocket.onclose = () => {
      oddsSocket = undefined;
      setTimeout(() => void connectOdds(), 2000);
    };
  }

  function onLiveFrame(frame) {
    if (frame.op === 'error') return setStatus(`Live: ${frame.error}`);
    const entry = fixtures.get(frame.data && frame.data.match_id);
    if (!entry) return;
    entry.snapshot = frame.data;
    render(entry);
  }

  function subscribe(matchId) {
    if (liveSocket && liveSocket.readyState === 1) {
      liveSocket.send(JSON.stringify({ action: 'subscribe', match_id: matchId }));
    }
  }

  function connectLive() {
    liveSocket = new WebSocket(wsUrl(fixturesBase, `${basePath}/stream`));
    liveSocket.onopen = () => {
      for (const matchId of fixtures.keys()) subscribe(matchId);
    };
    liveSocket.onmessage = (message) => onLiveFrame(JSON.parse(message.data));
    liveSocket.onclose = () => setTimeout(connectLive, 2000);
  }

  async function refreshLiveMatches() {
    const sports = await getJson(`${fixturesBase}${basePath}/sports`);
    let count = 0;
    for (const sport of sports) {
      const live = await getJson(`${fixturesBase}${basePath}/matches/live?sport=${sport.id}`);
      for (const match of live) {
        count += 1;
        if (!fixtures.has(match.id)) {
          const entry = matchCard(match, sport);
          subscribe(match.id);
          renderPrices(entry);
        }
      }
    }
    setStatus(`Connected. ${count} live matches.`);
  }

  function tick() {
    for (const entry of fixtures.values()) {
      if (entry.snapshot && entry.snapshot.sport === 'soccer' && entry.snapshot.clock.running) render(entry);
    }
  }

  async function start() {
    key = keyInput.value.trim();
    sessionStorage.setItem('board-key', key);
    clearInterval(refreshTimer);
    try {
      await refreshLiveMatches();
    } catch (error) {
      setStatus(`Cannot read live matches: ${error.message}`);
      return;
    }
    if (!liveSocket) connectLive();
    void connectOdds();
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
})();
