export interface SportDto {
  readonly id: number;
  readonly name: string;
}
