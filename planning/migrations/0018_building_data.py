# Building data on structure nodes (address, gross floor area, year built), a component's
# condition (grade 0-3, assessed on), docs/subsystems/domain.md "The tables", and the node's `ref` from its
# import file (unique in a plan when given). The check constraints make SQLite rebuild
# planning_structurenode, which its change triggers forbid: they are set aside around the
# migration as in 0015.

import django.core.validators
from decimal import Decimal
from django.db import migrations, models

from planning.db.rebuild import triggers_restore, triggers_set_aside


class Migration(migrations.Migration):

    dependencies = [
        ('planning', '0017_money'),
    ]

    operations = [
        migrations.RunPython(triggers_set_aside, triggers_restore, elidable=False),
        migrations.AddField(
            model_name='structurenode',
            name='address',
            field=models.CharField(blank=True, db_default='', default='', max_length=300),
        ),
        migrations.AddField(
            model_name='structurenode',
            name='condition_assessed_on',
            field=models.DateField(blank=True, null=True, verbose_name='condition assessed on'),
        ),
        migrations.AddField(
            model_name='structurenode',
            name='condition_grade',
            field=models.PositiveSmallIntegerField(blank=True, choices=[(0, '0: no symptoms'), (1, '1: minor symptoms'), (2, '2: moderate symptoms'), (3, '3: severe symptoms')], error_messages={'invalid_choice': 'Enter a condition grade from 0 to 3.'}, null=True, validators=[django.core.validators.MaxValueValidator(3, message='Enter a condition grade from 0 to 3.')]),
        ),
        migrations.AddField(
            model_name='structurenode',
            name='gross_floor_area_m2',
            field=models.DecimalField(blank=True, decimal_places=2, max_digits=12, null=True, validators=[django.core.validators.MinValueValidator(Decimal('0.01'), message='Enter a floor area above 0 m².')], verbose_name='gross floor area (m²)'),
        ),
        migrations.AddField(
            model_name='structurenode',
            name='ref',
            field=models.CharField(blank=True, db_default='', default='', editable=False, max_length=200),
        ),
        migrations.AddField(
            model_name='structurenode',
            name='year_built',
            field=models.PositiveSmallIntegerField(blank=True, null=True, validators=[django.core.validators.MinValueValidator(1900, message='Enter a year between 1900 and 2200.'), django.core.validators.MaxValueValidator(2200, message='Enter a year between 1900 and 2200.')]),
        ),
        migrations.AddConstraint(
            model_name='structurenode',
            constraint=models.UniqueConstraint(condition=models.Q(('ref', ''), _negated=True), fields=('plan', 'ref'), name='structure_node_ref_unique'),
        ),
        migrations.AddConstraint(
            model_name='structurenode',
            constraint=models.CheckConstraint(condition=models.Q(('gross_floor_area_m2__isnull', True), ('gross_floor_area_m2__gt', 0), _connector='OR'), name='structure_node_floor_area_positive'),
        ),
        migrations.AddConstraint(
            model_name='structurenode',
            constraint=models.CheckConstraint(condition=models.Q(('year_built__isnull', True), models.Q(('year_built__gte', 1900), ('year_built__lte', 2200)), _connector='OR'), name='structure_node_year_built_range'),
        ),
        migrations.AddConstraint(
            model_name='structurenode',
            constraint=models.CheckConstraint(condition=models.Q(('condition_grade__isnull', True), ('condition_grade__lte', 3), _connector='OR'), name='structure_node_condition_grade_range'),
        ),
        migrations.RunPython(triggers_restore, triggers_set_aside, elidable=False),
    ]
