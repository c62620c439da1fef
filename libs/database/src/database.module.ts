import { type DynamicModule, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { DatabaseEnv } from '@app/config';
import { buildDataSourceOptions } from './data-source-options';
import { openDataSource } from './open-data-source';

export interface DatabaseModuleOptions {
  readonly applicationName: string;
}

@Module({})
export class DatabaseModule {
  static forRoot(options: DatabaseModuleOptions): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [ConfigService],
          useFactory: (config: ConfigService<DatabaseEnv, true>) => ({
            ...buildDataSourceOptions({
              url: config.get('DATABASE_URL', { infer: true }),
              applicationName: options.applicationName,
              migrationsRun: config.get('MIGRATIONS_RUN', { infer: true }),
            }),
            autoLoadEntities: true,
          }),
          dataSourceFactory: async (dataSourceOptions) => {
            if (!dataSourceOptions) throw new Error('TypeORM options are missing');
            return openDataSource(dataSourceOptions);
          },
        }),
      ],
    };
  }
}
