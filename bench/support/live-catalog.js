// The provider catalog of the fixtures-live stream and memory benchmarks: `matchCount` soccer
// matches in play in one league, with ids the scripts push live states for (`st-<i>`), and a kit
// for every team. Without kits the provider answers 404 and the ingest keeps asking (with
// backoff), which is a steady cost of a provider that lacks them, not of serving live states.
'use strict';

function liveCatalog(matchCount) {
  const teams = [];
  const matches = [];
  for (let i = 0; i < matchCount; i++) {
    teams.push({ id: `tm-h${i}`, name: `Home ${i}` }, { id: `tm-a${i}`, name: `Away ${i}` });
    matches.push({
      id: `fx-${i}`,
      stat_id: `st-${i}`,
      live_id: `lv-${i}`,
      home_team_id: `tm-h${i}`,
      away_team_id: `tm-a${i}`,
      start_time: '2026-11-21T15:00:00Z',
      status: 'in_play',
      format: null,
    });
  }
  return [
    {
      sport: { id: 'sp-soccer', key: 'soccer', name: 'Soccer' },
      leagues: [{ league: { id: 'lg-bench', name: 'Bench League' }, teams, matches }],
    },
  ];
}

/** Serves the catalog and every team's kit on a FakeLivescores. */
function serveLiveCatalog(fake, matchCount) {
  fake.setCatalog(liveCatalog(matchCount));
  for (let i = 0; i < matchCount; i++) {
    for (const team of [`tm-h${i}`, `tm-a${i}`]) fake.setKit(team, `https://kits.example/${team}.png`);
  }
}

module.exports = { liveCatalog, serveLiveCatalog };
