import { teamIdFor } from './team-id';

describe('teamIdFor', () => {
  it('is stable and opaque', () => {
    expect(teamIdFor('tm-ars')).toBe(teamIdFor('tm-ars'));
    expect(teamIdFor('tm-ars')).not.toContain('ars');
    expect(teamIdFor('tm-ars')).toMatch(/^tm_[A-Za-z0-9_-]{16}$/);
  });

  it('differs between teams', () => {
    expect(teamIdFor('tm-ars')).not.toBe(teamIdFor('tm-che'));
  });
});
