from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="FundingYear")


@_attrs_define
class FundingYear:
    """
    Attributes:
        year (int):
        contribution (str):  Example: 1234.50.
        nominal_cost (str): E_t: live occurrences, every markup. Example: 1234.50.
        interest (str):  Example: 1234.50.
        balance (str): At the end of the year. Example: 1234.50.
        fully_funded_balance (str): Today's prices. Example: 1234.50.
        percent_funded (None | str): The balance at the start of the year / the fully funded balance; null when no
            component counts.
    """

    year: int
    contribution: str
    nominal_cost: str
    interest: str
    balance: str
    fully_funded_balance: str
    percent_funded: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        year = self.year

        contribution = self.contribution

        nominal_cost = self.nominal_cost

        interest = self.interest

        balance = self.balance

        fully_funded_balance = self.fully_funded_balance

        percent_funded: None | str
        percent_funded = self.percent_funded

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "year": year,
                "contribution": contribution,
                "nominal_cost": nominal_cost,
                "interest": interest,
                "balance": balance,
                "fully_funded_balance": fully_funded_balance,
                "percent_funded": percent_funded,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        year = d.pop("year")

        contribution = d.pop("contribution")

        nominal_cost = d.pop("nominal_cost")

        interest = d.pop("interest")

        balance = d.pop("balance")

        fully_funded_balance = d.pop("fully_funded_balance")

        def _parse_percent_funded(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        percent_funded = _parse_percent_funded(d.pop("percent_funded"))

        funding_year = cls(
            year=year,
            contribution=contribution,
            nominal_cost=nominal_cost,
            interest=interest,
            balance=balance,
            fully_funded_balance=fully_funded_balance,
            percent_funded=percent_funded,
        )

        funding_year.additional_properties = d
        return funding_year

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
